/**
 * @file kindred.h
 * @brief The whole public API of kindred: clustering with side information.
 *
 * kindred clusters points together with what the user knows about them:
 * must-link / cannot-link pairs (weighted, possibly noisy), relative
 * triplets with "don't know" answers, and partial labels.
 *
 * Conventions that hold for every function below:
 * - Every fallible function returns a ::kindred_status; ::KINDRED_OK is 0.
 *   On failure kindred_last_error() says what was wrong. The message is
 *   thread-local and is cleared on entry to every call, except
 *   kindred_last_error(), kindred_status_string(), kindred_version(),
 *   kindred_version_number() and the _free functions, which leave it as it
 *   is (so that it survives the clean-up of an error path).
 * - Caller arrays are borrowed for the duration of the call only. Whatever
 *   the library keeps, it copies. Results are copied into caller-allocated
 *   buffers whose length (in elements) is passed explicitly; a buffer that is
 *   too small is an error (::KINDRED_E_BUFFER_TOO_SMALL) whose message gives
 *   the required length. The library never returns memory the caller must free.
 * - Sizes and indices are int64_t; cluster labels are int32_t, -1 meaning
 *   "unknown / none".
 * - Distinct handles may be used from different threads at once; one handle
 *   must be used by one thread at a time. Functions that take no handle are
 *   thread-safe.
 * - The library never prints and keeps no process-wide mutable state.
 */
#ifndef KINDRED_H
#define KINDRED_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** @brief Major version; changes when the ABI breaks (it is the SONAME number). */
#define KINDRED_VERSION_MAJOR 0
/** @brief Minor version; grows when functions are added. */
#define KINDRED_VERSION_MINOR 1
/** @brief Patch version. */
#define KINDRED_VERSION_PATCH 0
/**
 * @brief The version of this header as one integer, MAJOR * 10000 + MINOR * 100 + PATCH
 *        (0.1.0 is 100, 1.2.3 is 10203): compare it with kindred_version_number(), the
 *        version of the library actually loaded, or test it in `#if`.
 */
#define KINDRED_VERSION_NUMBER (KINDRED_VERSION_MAJOR * 10000 + KINDRED_VERSION_MINOR * 100 + KINDRED_VERSION_PATCH)

/**
 * @def KINDRED_API
 * @brief Marks a function exported from the shared library (default visibility;
 *        everything else in the library is hidden).
 */
#if defined(_WIN32) && defined(KINDRED_BUILDING_LIBRARY)
#define KINDRED_API __declspec(dllexport)
#elif defined(__GNUC__)
#define KINDRED_API __attribute__((visibility("default")))
#else
#define KINDRED_API
#endif

/**
 * @brief Status code returned by every fallible function.
 *
 * A code keeps its value forever; a new code is only ever appended (and a
 * caller must treat a value it does not know as a failure). Failures of one
 * kind share a code and are told apart by the message of kindred_last_error().
 */
typedef enum kindred_status {
    KINDRED_OK = 0,                /**< Success. */
    KINDRED_E_INVALID = 1,         /**< An argument is invalid (NULL, negative size, NaN, ...). */
    KINDRED_E_DIMENSION = 2,       /**< Sizes of the arguments do not agree with each other. */
    KINDRED_E_INDEX = 3,           /**< An index is out of range. */
    KINDRED_E_INFEASIBLE = 4,      /**< Hard constraints cannot all be satisfied. */
    KINDRED_E_NOMEM = 5,           /**< Memory could not be allocated. */
    KINDRED_E_NUMERICAL = 6,       /**< A numerical failure (e.g. a factorisation failed). */
    KINDRED_E_CANCELLED = 7,       /**< The progress callback asked to stop. */
    KINDRED_E_NOT_FOUND = 8,       /**< No option, algorithm, result array, metric or strategy of that name. */
    KINDRED_E_STATE = 9,           /**< The handle is not in a state that allows the call. */
    KINDRED_E_IO = 10,             /**< A file could not be opened, read or written. */
    KINDRED_E_CORRUPT = 11,        /**< A file is truncated, corrupted or not a kindred file. */
    KINDRED_E_INTERNAL = 12,       /**< A bug in kindred; please report it with the message. */
    KINDRED_E_BUFFER_TOO_SMALL = 13 /**< A caller-allocated output buffer is too small; the
                                         message gives the length needed. Nothing was written. */
} kindred_status;

/** @brief Layout of a dense matrix argument. */
typedef enum kindred_layout {
    KINDRED_ROW_MAJOR = 101, /**< Element (i, j) is at x[i * ld + j]; ld >= d. */
    KINDRED_COL_MAJOR = 102  /**< Element (i, j) is at x[i + j * ld]; ld >= n. */
} kindred_layout;

/** @brief Type of an algorithm option. */
typedef enum kindred_option_type {
    KINDRED_OPTION_INT = 1,    /**< Integer; set with kindred_model_set_int(). */
    KINDRED_OPTION_DOUBLE = 2, /**< Real; set with kindred_model_set_double() (an int is accepted too). */
    KINDRED_OPTION_BOOL = 3,   /**< 0 or 1; set with kindred_model_set_int(). */
    KINDRED_OPTION_CHOICE = 4  /**< One word of a fixed list; set with kindred_model_set_string(). */
} kindred_option_type;

/** @brief Flags saying which side information an algorithm uses. */
enum kindred_uses {
    KINDRED_USES_PAIRS = 1,          /**< must-link / cannot-link pairs */
    KINDRED_USES_TRIPLETS = 2,       /**< relative triplets */
    KINDRED_USES_PARTIAL_LABELS = 4, /**< labels of some points */
    KINDRED_USES_SPARSE = 8,         /**< accepts CSR data */
    KINDRED_USES_NO_K = 16,          /**< finds the number of clusters itself */
    KINDRED_USES_TRANSFORM = 32,     /**< learns a transformation: kindred_model_transform_dense() */
    KINDRED_USES_SOFT = 64,          /**< soft memberships of new points: kindred_model_predict_proba_dense() */
    KINDRED_USES_SHARDS = 128,       /**< Experimental. kindred_model_fit_dense_shard() (and, with
                                          KINDRED_USES_SPARSE, kindred_model_fit_csr_shard()) over any
                                          number of ranks gives the single-process fit, bitwise */
    KINDRED_USES_SHARDS_APPROX = 256 /**< Experimental. kindred_model_fit_dense_shard() runs, but its result
                                          follows the single-process fit only in distribution */
};

/* ------------------------------------------------------------------ */
/** @name Errors and version */
/** @{ */

/**
 * @brief The message of the last failed call on this thread.
 * @return A NUL-terminated string owned by the library, valid until the next
 *         kindred call on this thread; never NULL (empty after a success).
 * Thread-safe (the message is per thread).
 */
KINDRED_API const char *kindred_last_error(void);

/**
 * @brief A short name for any status code.
 * @param status a ::kindred_status; a value that is none of its codes (from a
 *        newer library, or any int converted) gives "unknown status".
 * @return A static string; never NULL. Thread-safe.
 */
KINDRED_API const char *kindred_status_string(kindred_status status);

/**
 * @brief The library's version as "MAJOR.MINOR.PATCH".
 * @return A static string; never NULL. Thread-safe.
 */
KINDRED_API const char *kindred_version(void);

/**
 * @brief The library's version as one integer, MAJOR * 10000 + MINOR * 100 + PATCH:
 *        ::KINDRED_VERSION_NUMBER of the header the library was built with (which may
 *        differ from the header a program was compiled with when the library is shared).
 * @return The number, e.g. 100 for 0.1.0. Thread-safe.
 */
KINDRED_API int kindred_version_number(void);

/** @} */

/* ------------------------------------------------------------------ */
/** @name Algorithms and their options (introspection)
 * Every algorithm declares one table of options; these functions read it.
 * All are thread-safe; returned strings are static and never NULL on success. */
/** @{ */

/**
 * @brief Number of algorithms the library has. Thread-safe.
 * @return The count, >= 1.
 */
KINDRED_API int64_t kindred_algorithm_count(void);

/**
 * @brief Name of the algorithm at @p index.
 * @param index in [0, kindred_algorithm_count()).
 * @return A static string, or NULL when @p index is out of range.
 */
KINDRED_API const char *kindred_algorithm_name(int64_t index);

/**
 * @brief One-line description of an algorithm.
 * @param algorithm algorithm name (borrowed).
 * @param[out] summary receives a static string.
 * @return ::KINDRED_OK, ::KINDRED_E_INVALID (NULL argument),
 *         ::KINDRED_E_NOT_FOUND (no such algorithm).
 */
KINDRED_API kindred_status kindred_algorithm_summary(const char *algorithm, const char **summary);

/**
 * @brief Which side information an algorithm uses (::kindred_uses flags).
 * @param algorithm algorithm name (borrowed).
 * @param[out] flags receives a bitwise OR of ::kindred_uses values.
 * @return ::KINDRED_OK, ::KINDRED_E_INVALID, ::KINDRED_E_NOT_FOUND.
 */
KINDRED_API kindred_status kindred_algorithm_uses(const char *algorithm, int *flags);

/**
 * @brief Number of options of an algorithm.
 * @param algorithm algorithm name (borrowed).
 * @param[out] count receives the number of options.
 * @return ::KINDRED_OK, ::KINDRED_E_INVALID, ::KINDRED_E_NOT_FOUND.
 */
KINDRED_API kindred_status kindred_option_count(const char *algorithm, int64_t *count);

/**
 * @brief Describe the option at @p index of an algorithm's table.
 * Any of the output pointers may be NULL when that part is not wanted.
 * @param algorithm algorithm name (borrowed).
 * @param index in [0, count) as given by kindred_option_count().
 * @param[out] name static string: the option's name.
 * @param[out] type a ::kindred_option_type value.
 * @param[out] default_value static string: the default in text form
 *             ("" when the option is unset by default).
 * @param[out] range static string: the allowed values in text form,
 *             e.g. "(0, 1)", "[1, 1000]", "max|sum" (a bracket
 *             includes its bound, a parenthesis excludes it).
 * @param[out] doc static string: one line of documentation.
 * @return ::KINDRED_OK, ::KINDRED_E_INVALID, ::KINDRED_E_NOT_FOUND,
 *         ::KINDRED_E_INDEX.
 */
KINDRED_API kindred_status kindred_option_info(const char *algorithm, int64_t index,
                                               const char **name, kindred_option_type *type,
                                               const char **default_value,
                                               const char **range, const char **doc);

/** @} */

/* ------------------------------------------------------------------ */
/** @name Side information
 * One ::kindred_side holds the side information about n points: pairs,
 * triplets and partial labels. It can be reused across fits. Each add call
 * validates its whole batch first and adds nothing if any entry is bad. */
/** @{ */

/** @brief Opaque handle to side information about n points. */
typedef struct kindred_side kindred_side;

/**
 * @brief Create empty side information about @p n points.
 * @param[out] out receives a new handle, to be released with kindred_side_free().
 * @param n number of points, > 0.
 * @return ::KINDRED_OK, ::KINDRED_E_INVALID, ::KINDRED_E_NOMEM.
 */
KINDRED_API kindred_status kindred_side_new(kindred_side **out, int64_t n);

/**
 * @brief Release a side-information handle.
 * @param side handle from kindred_side_new(), or NULL (ignored).
 */
KINDRED_API void kindred_side_free(kindred_side *side);

/**
 * @brief Add pairs given as COO arrays.
 *
 * value > 0 is a must-link (may-link) of weight value; value < 0 a cannot-link
 * of weight -value. (i, j) and (j, i) name the same pair; duplicates are
 * summed and a pair whose sum is 0 is dropped.
 * @param side handle.
 * @param i,j,value arrays of length @p count (borrowed).
 * @param count number of entries, >= 0.
 * @return ::KINDRED_OK; ::KINDRED_E_INVALID (NULL array, i == j, NaN or
 *         infinite value, or duplicates whose sum overflows to infinity);
 *         ::KINDRED_E_INDEX (index outside [0, n)), the message naming the
 *         entry; ::KINDRED_E_NOMEM.
 */
KINDRED_API kindred_status kindred_side_add_pairs(kindred_side *side, const int64_t *i,
                                                  const int64_t *j, const double *value,
                                                  int64_t count);

/**
 * @brief Add relative triplets "is a closer to b than to c?".
 * @param side handle.
 * @param a,b,c point indices, arrays of length @p count (borrowed).
 * @param answer array of length @p count: +1 (a is closer to b), -1 (a is
 *        closer to c), 0 (don't know).
 * @param count number of triplets, >= 0.
 * @return ::KINDRED_OK; ::KINDRED_E_INVALID (NULL array, repeated index inside
 *         a triplet, answer outside {-1, 0, 1}); ::KINDRED_E_INDEX;
 *         ::KINDRED_E_NOMEM.
 */
KINDRED_API kindred_status kindred_side_add_triplets(kindred_side *side, const int64_t *a,
                                                     const int64_t *b, const int64_t *c,
                                                     const int32_t *answer, int64_t count);

/**
 * @brief Set (replace) the partial labels.
 * @param side handle.
 * @param labels array of length @p n (borrowed): a class id >= 0, or -1 for unknown.
 * @param n must equal the handle's number of points.
 * @return ::KINDRED_OK; ::KINDRED_E_INVALID (label < -1, NULL);
 *         ::KINDRED_E_DIMENSION (n differs).
 */
KINDRED_API kindred_status kindred_side_set_partial_labels(kindred_side *side,
                                                           const int32_t *labels, int64_t n);

/**
 * @brief Count what the handle holds.
 * Any output pointer may be NULL.
 * @param side handle.
 * @param[out] n number of points.
 * @param[out] pairs number of distinct pairs (after summing duplicates).
 * @param[out] triplets number of triplets.
 * @param[out] labelled number of points with a partial label.
 * @return ::KINDRED_OK, ::KINDRED_E_INVALID.
 */
KINDRED_API kindred_status kindred_side_counts(const kindred_side *side, int64_t *n,
                                               int64_t *pairs, int64_t *triplets,
                                               int64_t *labelled);

/**
 * @brief Copy out the distinct pairs, each once with i < j, sorted by (i, j).
 * @param side handle.
 * @param[out] i,j,value arrays of length @p capacity (caller-allocated).
 * @param capacity length of each array; must be at least the pair count.
 * @return ::KINDRED_OK, ::KINDRED_E_INVALID, ::KINDRED_E_BUFFER_TOO_SMALL
 *         (the message gives the pair count).
 */
KINDRED_API kindred_status kindred_side_pairs(const kindred_side *side, int64_t *i,
                                                  int64_t *j, double *value, int64_t capacity);

/**
 * @brief Copy out the triplets in the order they were added.
 * @param side handle.
 * @param[out] a,b,c,answer arrays of length @p capacity (caller-allocated).
 * @param capacity must be at least the triplet count.
 * @return ::KINDRED_OK, ::KINDRED_E_INVALID, ::KINDRED_E_BUFFER_TOO_SMALL
 *         (the message gives the triplet count).
 */
KINDRED_API kindred_status kindred_side_triplets(const kindred_side *side, int64_t *a,
                                                     int64_t *b, int64_t *c, int32_t *answer,
                                                     int64_t capacity);

/**
 * @brief Must-link components (transitive closure of the must-links).
 * @param side handle.
 * @param[out] component array of length @p n (caller-allocated): the
 *             component id of each point, numbered 0, 1, ... in order of the
 *             smallest point of each component. May be NULL.
 * @param n length of @p component (ignored when it is NULL).
 * @param[out] count number of components. May be NULL.
 * @return ::KINDRED_OK, ::KINDRED_E_INVALID, ::KINDRED_E_BUFFER_TOO_SMALL
 *         (@p n smaller than the handle's number of points).
 */
KINDRED_API kindred_status kindred_side_components(const kindred_side *side, int64_t *component,
                                                   int64_t n, int64_t *count);

/**
 * @brief Check that no cannot-link joins two points of one must-link component.
 * @param side handle.
 * @return ::KINDRED_OK when consistent; ::KINDRED_E_INFEASIBLE with a message
 *         naming the first offending cannot-link; ::KINDRED_E_INVALID.
 */
KINDRED_API kindred_status kindred_side_check_consistent(const kindred_side *side);

/** @} */

/* ------------------------------------------------------------------ */
/** @name Models */
/** @{ */

/** @brief Opaque handle to a model: an algorithm, its options, and after a fit its results. */
typedef struct kindred_model kindred_model;

/**
 * @brief Progress callback: called after each iteration of a fit.
 * @param user the pointer given to kindred_model_set_progress().
 * @param iteration iteration number, from 1.
 * @param objective the current objective (algorithm-specific; NaN if none).
 * @param message a short description of the stage (borrowed for the call).
 * @return 0 to go on, non-zero to cancel the fit (::KINDRED_E_CANCELLED).
 * The callback must not call kindred functions on the same model.
 */
typedef int (*kindred_progress_fn)(void *user, int64_t iteration, double objective,
                                   const char *message);

/**
 * @brief Log callback for diagnostics (the library never prints).
 * @param user the pointer given to kindred_model_set_log().
 * @param level 0 = debug, 1 = info, 2 = warning.
 * @param message the message (borrowed for the call).
 */
typedef void (*kindred_log_fn)(void *user, int level, const char *message);

/**
 * @brief Create a model for an algorithm, with every option at its default.
 * @param[out] out receives the handle, to be released with kindred_model_free().
 * @param algorithm algorithm name (borrowed), see kindred_algorithm_name().
 * @return ::KINDRED_OK, ::KINDRED_E_INVALID, ::KINDRED_E_NOT_FOUND, ::KINDRED_E_NOMEM.
 */
KINDRED_API kindred_status kindred_model_new(kindred_model **out, const char *algorithm);

/**
 * @brief Release a model.
 * @param model handle from kindred_model_new() or kindred_model_load(), or NULL (ignored).
 */
KINDRED_API void kindred_model_free(kindred_model *model);

/**
 * @brief The model's algorithm name.
 * @param model handle, may be NULL.
 * @return A static string, or NULL when @p model is NULL.
 */
KINDRED_API const char *kindred_model_algorithm(const kindred_model *model);

/**
 * @brief Set an integer or boolean option.
 * Setting an option after a fit keeps the fitted results; they are replaced by the next fit.
 * Until then predict, transform and save use the options of that fit (or of the
 * loaded file), all but "threads": the fitted arrays are only valid for them.
 * @param model handle.
 * @param name option name (borrowed).
 * @param value the value; booleans are 0 or 1.
 * @return ::KINDRED_OK; ::KINDRED_E_NOT_FOUND (no such option, the message
 *         lists the valid names); ::KINDRED_E_INVALID (value out of range or
 *         wrong type, the message gives the range).
 */
KINDRED_API kindred_status kindred_model_set_int(kindred_model *model, const char *name,
                                                 int64_t value);

/**
 * @brief Set a real option (integer options accept integral values too).
 * @param model handle.
 * @param name option name (borrowed).
 * @param value the value.
 * @return as kindred_model_set_int().
 */
KINDRED_API kindred_status kindred_model_set_double(kindred_model *model, const char *name,
                                                    double value);

/**
 * @brief Set a choice option, or any option from its text form ("0.5", "10", "cosine").
 *
 * Numbers are decimal ("1e-3", "inf" where the range allows it); the whole
 * text must be the number (no surrounding spaces), and hexadecimal ("0x10")
 * is refused with ::KINDRED_E_INVALID.
 * @param model handle.
 * @param name option name (borrowed).
 * @param value NUL-terminated text (borrowed).
 * @return as kindred_model_set_int().
 */
KINDRED_API kindred_status kindred_model_set_string(kindred_model *model, const char *name,
                                                    const char *value);

/**
 * @brief Read an option's current value in text form ("" when unset).
 * @param model handle.
 * @param name option name (borrowed).
 * @param[out] buffer caller buffer; receives a NUL-terminated string.
 * @param capacity size of @p buffer in bytes.
 * @return ::KINDRED_OK; ::KINDRED_E_NOT_FOUND; ::KINDRED_E_BUFFER_TOO_SMALL
 *         (the message gives the size needed); ::KINDRED_E_INVALID.
 */
KINDRED_API kindred_status kindred_model_option(const kindred_model *model,
                                                    const char *name, char *buffer,
                                                    size_t capacity);

/**
 * @brief Install (or remove, with NULL) the progress callback.
 * @param model handle.
 * @param fn callback, may be NULL; @param user passed back to @p fn (not owned).
 * @return ::KINDRED_OK, ::KINDRED_E_INVALID.
 */
KINDRED_API kindred_status kindred_model_set_progress(kindred_model *model,
                                                      kindred_progress_fn fn, void *user);

/**
 * @brief Install (or remove, with NULL) the log callback.
 * @param model handle.
 * @param fn callback, may be NULL.
 * @param user passed back to @p fn (not owned).
 * @return ::KINDRED_OK, ::KINDRED_E_INVALID.
 */
KINDRED_API kindred_status kindred_model_set_log(kindred_model *model, kindred_log_fn fn,
                                                 void *user);

/**
 * @brief Fit the model on dense data.
 *
 * The points are read in place (no copy). On failure the model is left
 * unfitted (any earlier results are discarded).
 * @param model handle.
 * @param x matrix of n rows (points) and d columns (borrowed).
 * @param n number of points, > 0; @param d dimension, > 0.
 * @param layout ::KINDRED_ROW_MAJOR or ::KINDRED_COL_MAJOR.
 * @param ld leading dimension (>= d row-major, >= n column-major).
 * @param side side information about the n points, or NULL (borrowed).
 * @return ::KINDRED_OK; ::KINDRED_E_INVALID (NaN / Inf, naming row and
 *         column; a magnitude above 1e100, or every value below 1e-100 in
 *         magnitude, where squared distances overflow / underflow; bad
 *         layout; data or side information the algorithm cannot use, e.g.
 *         negative counts for a divergence on counts, or no partial labels
 *         for tcs-gm / tcs-vmf); ::KINDRED_E_DIMENSION (@p ld too
 *         small, side about another n, too few points for the options);
 *         ::KINDRED_E_INDEX (a partial label outside [0, n) for tcs-gm /
 *         tcs-vmf); ::KINDRED_E_INFEASIBLE (hard constraints);
 *         ::KINDRED_E_CANCELLED; ::KINDRED_E_NUMERICAL; ::KINDRED_E_NOMEM.
 */
KINDRED_API kindred_status kindred_model_fit_dense(kindred_model *model, const double *x,
                                                   int64_t n, int64_t d, kindred_layout layout,
                                                   int64_t ld, const kindred_side *side);

/**
 * @brief Fit the model on dense float32 points, read in place (no copy).
 * Every value is widened to double where it is read (exactly: each float is a
 * double) and all sums accumulate in double, so the result is the result of
 * kindred_model_fit_dense() on a float64 array holding the same values
 * (bitwise for row-major points; GEMM on column-major blocks may differ in
 * the last bits). Options, arguments and errors as kindred_model_fit_dense().
 * Memory: no copy of the points, beyond the copies an algorithm makes for
 * float64 input too (docs/reliability.md) and blocks of a few thousand rows
 * widened for GEMM.
 * @param model handle.
 * @param x float32 matrix of n rows (points) and d columns (borrowed).
 * @param n,d,layout,ld,side as in kindred_model_fit_dense().
 * @return as kindred_model_fit_dense().
 */
KINDRED_API kindred_status kindred_model_fit_dense_f32(kindred_model *model, const float *x,
                                                       int64_t n, int64_t d, kindred_layout layout,
                                                       int64_t ld, const kindred_side *side);

/**
 * @brief Fit the model on CSR sparse data (n rows, d columns).
 * @param model handle.
 * @param n number of points (rows), > 0.
 * @param d dimension (columns), > 0.
 * @param indptr array of n + 1 offsets, non-decreasing, indptr[0] == 0.
 * @param indices column indices in [0, d), indptr[n] entries; within a row
 *        in any order, but each column at most once.
 * @param values the entries, indptr[n] of them.
 * @param side side information about the n points, or NULL (borrowed).
 * @return as kindred_model_fit_dense(); ::KINDRED_E_INVALID also when the
 *         algorithm does not accept sparse data, @p indptr does not start
 *         at 0 or decreases, or a row repeats a column; ::KINDRED_E_INDEX for
 *         a column index outside [0, d).
 */
KINDRED_API kindred_status kindred_model_fit_csr(kindred_model *model, int64_t n, int64_t d,
                                                 const int64_t *indptr, const int64_t *indices,
                                                 const double *values,
                                                 const kindred_side *side);

/**
 * @brief Summary of a fitted model. Any output pointer may be NULL.
 * @param model handle.
 * @param[out] n number of points fitted; @param[out] d their dimension;
 * @param[out] clusters number of clusters found;
 * @param[out] iterations iterations of the best run;
 * @param[out] converged 1 if the stopping rule was met, 0 if max_iter stopped it;
 * @param[out] objective final objective (algorithm-specific).
 * @return ::KINDRED_OK; ::KINDRED_E_STATE (not fitted); ::KINDRED_E_INVALID.
 */
KINDRED_API kindred_status kindred_model_summary(const kindred_model *model, int64_t *n,
                                                 int64_t *d, int64_t *clusters,
                                                 int64_t *iterations, int *converged,
                                                 double *objective);

/**
 * @brief Copy the labels of the fitted points.
 * @param model handle.
 * @param[out] labels caller array of @p capacity entries.
 * @param capacity length of @p labels, >= n.
 * @return ::KINDRED_OK, ::KINDRED_E_STATE, ::KINDRED_E_BUFFER_TOO_SMALL, ::KINDRED_E_INVALID.
 */
KINDRED_API kindred_status kindred_model_labels(const kindred_model *model, int32_t *labels,
                                                int64_t capacity);

/**
 * @brief Number of named result arrays a fitted model holds.
 * Names include "centers" (k x d), "memberships" (n x k soft assignments),
 * "objective_trace" (iterations x 1) and algorithm-specific ones (a learned
 * "metric", "transform", ...); see the algorithm's documentation.
 * @param model handle.
 * @param[out] count number of arrays.
 * @return ::KINDRED_OK, ::KINDRED_E_STATE, ::KINDRED_E_INVALID.
 */
KINDRED_API kindred_status kindred_model_array_count(const kindred_model *model, int64_t *count);

/**
 * @brief Name and shape of the result array at @p index.
 * @param model handle.
 * @param index in [0, count) as given by kindred_model_array_count().
 * @param[out] name static-for-the-model's-life string (valid until the next
 *             fit, load or free). May be NULL.
 * @param[out] rows,cols shape. May be NULL.
 * @return ::KINDRED_OK, ::KINDRED_E_STATE, ::KINDRED_E_INDEX, ::KINDRED_E_INVALID.
 */
KINDRED_API kindred_status kindred_model_array_info(const kindred_model *model, int64_t index,
                                                    const char **name, int64_t *rows,
                                                    int64_t *cols);

/**
 * @brief Shape of the result array called @p name.
 * @param model handle.
 * @param name array name (borrowed).
 * @param[out] rows,cols shape. May be NULL.
 * @return ::KINDRED_OK; ::KINDRED_E_NOT_FOUND (the model has no such
 *         array; the message lists those it has); ::KINDRED_E_STATE.
 */
KINDRED_API kindred_status kindred_model_array_shape(const kindred_model *model,
                                                     const char *name, int64_t *rows,
                                                     int64_t *cols);

/**
 * @brief Copy the result array called @p name, row-major.
 * @param model handle.
 * @param name array name (borrowed).
 * @param[out] out caller array of @p capacity entries.
 * @param capacity length of @p out, >= rows * cols.
 * @return ::KINDRED_OK, ::KINDRED_E_NOT_FOUND, ::KINDRED_E_STATE,
 *         ::KINDRED_E_BUFFER_TOO_SMALL, ::KINDRED_E_INVALID.
 */
KINDRED_API kindred_status kindred_model_array(const kindred_model *model, const char *name,
                                                   double *out, int64_t capacity);

/**
 * @brief Assign new dense points to the fitted clusters.
 * @param model a fitted handle.
 * @param x,n,d,layout,ld as in kindred_model_fit_dense(); d must equal the fitted d.
 * @param[out] labels caller array of @p capacity entries.
 * @param capacity length of @p labels, >= n.
 * @return ::KINDRED_OK; ::KINDRED_E_STATE (not fitted, or the algorithm
 *         cannot predict); ::KINDRED_E_DIMENSION (d differs from the fitted d);
 *         ::KINDRED_E_BUFFER_TOO_SMALL (@p capacity < n, found before a point
 *         is read); ::KINDRED_E_INVALID;
 *         ::KINDRED_E_CORRUPT (a loaded model whose result arrays have
 *         inconsistent shapes or values).
 */
KINDRED_API kindred_status kindred_model_predict_dense(const kindred_model *model,
                                                       const double *x, int64_t n, int64_t d,
                                                       kindred_layout layout, int64_t ld, int32_t *labels,
                                                       int64_t capacity);

/**
 * @brief kindred_model_predict_dense() for float32 points (read in place,
 *        widened to double where read; see kindred_model_fit_dense_f32()).
 * @param model a fitted handle.
 * @param x float32 points (borrowed).
 * @param n,d,layout,ld as in kindred_model_fit_dense(); d must equal the fitted d.
 * @param[out] labels caller array of @p capacity entries.
 * @param capacity length of @p labels, >= n.
 * @return as kindred_model_predict_dense().
 */
KINDRED_API kindred_status kindred_model_predict_dense_f32(const kindred_model *model,
                                                           const float *x, int64_t n, int64_t d,
                                                           kindred_layout layout, int64_t ld,
                                                           int32_t *labels, int64_t capacity);

/**
 * @brief Soft memberships of new dense points in the fitted clusters, for the
 *        algorithms whose kindred_algorithm_uses() flags have ::KINDRED_USES_SOFT
 *        (a mixture model's posterior probabilities of its components).
 * Not thread-safe on one handle (one thread at a time); distinct handles may be
 * used at once.
 * @param model a fitted handle.
 * @param x,n,d,layout,ld as in kindred_model_fit_dense(); d must equal the fitted d.
 * @param[out] out caller array, row-major n x k with k the fitted number of
 *        clusters (kindred_model_summary()); each row sums to 1, and its largest
 *        entry is the cluster kindred_model_predict_dense() gives.
 * @param capacity length of @p out, >= n * k.
 * @return ::KINDRED_OK; ::KINDRED_E_STATE (not fitted, or the algorithm gives
 *         no soft memberships); ::KINDRED_E_DIMENSION (d differs);
 *         ::KINDRED_E_BUFFER_TOO_SMALL (@p capacity < n * k: the message gives
 *         the size needed); ::KINDRED_E_INVALID;
 *         ::KINDRED_E_CORRUPT (a loaded model with inconsistent result arrays).
 */
KINDRED_API kindred_status kindred_model_predict_proba_dense(const kindred_model *model,
                                                             const double *x, int64_t n, int64_t d,
                                                             kindred_layout layout, int64_t ld, double *out,
                                                             int64_t capacity);

/**
 * @brief kindred_model_predict_proba_dense() for float32 points (read in
 *        place; the memberships are float64).
 * @param model a fitted handle.
 * @param x float32 points (borrowed).
 * @param n,d,layout,ld as in kindred_model_fit_dense(); d must equal the fitted d.
 * @param[out] out caller array, row-major n x k.
 * @param capacity length of @p out, >= n * k.
 * @return as kindred_model_predict_proba_dense().
 */
KINDRED_API kindred_status kindred_model_predict_proba_dense_f32(const kindred_model *model,
                                                                 const float *x, int64_t n,
                                                                 int64_t d, kindred_layout layout, int64_t ld,
                                                                 double *out, int64_t capacity);

/**
 * @brief Assign new CSR points to the fitted clusters.
 * @param model a fitted handle.
 * @param n,d,indptr,indices,values as in kindred_model_fit_csr().
 * @param[out] labels caller array of @p capacity entries.
 * @param capacity length of @p labels, >= n.
 * @return as kindred_model_predict_dense(); ::KINDRED_E_INVALID also for a
 *         malformed @p indptr, a row that repeats a column, or an algorithm
 *         that does not accept sparse data; ::KINDRED_E_INDEX for a column
 *         index outside [0, d).
 */
KINDRED_API kindred_status kindred_model_predict_csr(const kindred_model *model, int64_t n,
                                                     int64_t d, const int64_t *indptr,
                                                     const int64_t *indices,
                                                     const double *values, int32_t *labels,
                                                     int64_t capacity);

/**
 * @brief Dimension of the output of kindred_model_transform_dense().
 * @param model a fitted handle.
 * @param[out] dim receives it.
 * @return ::KINDRED_OK; ::KINDRED_E_STATE (not fitted, or the algorithm has
 *         no transformation); ::KINDRED_E_INVALID.
 */
KINDRED_API kindred_status kindred_model_transform_dim(const kindred_model *model, int64_t *dim);

/**
 * @brief Map new dense points through the learned transformation.
 * @param model a fitted handle.
 * @param x,n,d,layout,ld as in kindred_model_fit_dense(); d must equal the fitted d.
 * @param[out] out caller array, row-major n x dim.
 * @param capacity length of @p out, >= n * dim.
 * @return as kindred_model_predict_dense().
 */
KINDRED_API kindred_status kindred_model_transform_dense(const kindred_model *model,
                                                         const double *x, int64_t n, int64_t d,
                                                         kindred_layout layout, int64_t ld, double *out,
                                                         int64_t capacity);

/**
 * @brief kindred_model_transform_dense() for float32 points (read in place;
 *        the output is float64).
 * @param model a fitted handle.
 * @param x float32 points (borrowed).
 * @param n,d,layout,ld as in kindred_model_fit_dense(); d must equal the fitted d.
 * @param[out] out caller array, row-major n x dim.
 * @param capacity length of @p out, >= n * dim.
 * @return as kindred_model_transform_dense().
 */
KINDRED_API kindred_status kindred_model_transform_dense_f32(const kindred_model *model,
                                                             const float *x, int64_t n, int64_t d,
                                                             kindred_layout layout, int64_t ld, double *out,
                                                             int64_t capacity);

/**
 * @brief Save a fitted model (options and results) to a file.
 * The file has a magic number, a format version and a checksum.
 * @param model a fitted handle.
 * @param path file name (borrowed); an existing file is replaced.
 * @return ::KINDRED_OK, ::KINDRED_E_STATE, ::KINDRED_E_IO, ::KINDRED_E_INVALID.
 */
KINDRED_API kindred_status kindred_model_save(const kindred_model *model, const char *path);

/**
 * @brief Load a model saved by kindred_model_save().
 * @param[out] out receives a new fitted handle (release with kindred_model_free()).
 * @param path file name (borrowed).
 * @return ::KINDRED_OK; ::KINDRED_E_IO (cannot open or read); ::KINDRED_E_CORRUPT
 *         (not a kindred model, unsupported version, truncated, checksum
 *         mismatch); ::KINDRED_E_INVALID; ::KINDRED_E_NOMEM.
 */
KINDRED_API kindred_status kindred_model_load(kindred_model **out, const char *path);

/** @} */

/* ------------------------------------------------------------------ */
/** @name Evaluation: metrics and sampling of side information from labels
 * Thread-safe. Labels are any int32_t values (negative ones included) and are
 * compared as categories; cost O(n + k1 * k2). */
/** @{ */

/**
 * @brief Compare two labelings with a named metric.
 * @param metric "nmi" (arithmetic-mean normalisation), "ari", "f-measure"
 *        (pairwise), "precision" and "recall" (pairwise), "purity", "rand", "mi" (nats).
 * @param truth,predicted arrays of length @p n (borrowed).
 * @param n number of points, > 0.
 * @param[out] value the score.
 * @return ::KINDRED_OK; ::KINDRED_E_NOT_FOUND (no such metric);
 *         ::KINDRED_E_INVALID.
 */
KINDRED_API kindred_status kindred_metric(const char *metric, const int32_t *truth,
                                          const int32_t *predicted, int64_t n, double *value);

/**
 * @brief Number of metrics known to kindred_metric(). Thread-safe.
 * @return The count.
 */
KINDRED_API int64_t kindred_metric_count(void);

/**
 * @brief Name of a metric known to kindred_metric(). Thread-safe.
 * @param index in [0, kindred_metric_count()).
 * @return A static string, or NULL when @p index is out of range.
 */
KINDRED_API const char *kindred_metric_name(int64_t index);

/**
 * @brief Sample must-link / cannot-link pairs from a label vector into @p side.
 *
 * Distinct pairs are drawn uniformly without replacement; each pair's answer
 * is +1 if the labels agree and -1 otherwise, flipped with probability @p noise.
 * Points whose label is negative are never drawn.
 * @param side handle about n points; pairs are added to it.
 * @param labels array of length @p n (borrowed).
 * @param n number of points; must equal the handle's.
 * @param count number of pairs; pass -1 to use @p rate instead.
 * @param rate fraction of all n(n-1)/2 pairs, in [0, 1] (used when count is -1).
 * @param noise probability of flipping an answer, in [0, 1].
 * @param seed random seed; equal seeds give equal samples.
 * @return ::KINDRED_OK, ::KINDRED_E_INVALID, ::KINDRED_E_DIMENSION, ::KINDRED_E_NOMEM.
 */
KINDRED_API kindred_status kindred_sample_pairs(kindred_side *side, const int32_t *labels,
                                                int64_t n, int64_t count, double rate,
                                                double noise, uint64_t seed);

/**
 * @brief Sample relative triplets from a label vector into @p side.
 *
 * Triplets (a, b, c) of distinct labelled points are drawn at random; the
 * answer is +1 if a shares b's class but not c's, -1 if a shares c's class
 * but not b's, 0 (don't know) otherwise; a yes/no answer is flipped with
 * probability @p noise.
 * @param side handle about n points; triplets are added to it.
 * @param labels array of length @p n (borrowed).
 * @param n number of points; must equal the handle's.
 * @param count number of triplets, >= 0.
 * @param noise probability of flipping a yes / no answer, in [0, 1].
 * @param seed random seed; equal seeds give equal samples.
 * @return as kindred_sample_pairs().
 */
KINDRED_API kindred_status kindred_sample_triplets(kindred_side *side, const int32_t *labels,
                                                   int64_t n, int64_t count, double noise,
                                                   uint64_t seed);

/** @} */

/* ================================================================== */
/** @name Experimental
 * EXPERIMENTAL: the functions of this section are exported, versioned and
 * documented like the others, but their signatures, option names and
 * defaults may still change in a minor release after 0.1 (the rest of this
 * header changes only with the SONAME). A function leaves this section,
 * becoming stable, in a minor release that says so; it never moves the other
 * way. Each one's documentation begins with "Experimental". */
/** @{ */

/* ------------------------------------------------------------------ */
/* Active selection of pairwise constraints: which pairs to ask a person (or
 * any oracle) about, so that few answers help a pairwise method (copkmeans,
 * pckmeans, mpckmeans) most. */

/**
 * @brief Oracle callback for active selection: are points i and j in the same cluster?
 * Experimental.
 * @param user the pointer given with the callback.
 * @param i,j the two points (0-based indices).
 * @return +1 same cluster, -1 different clusters, 0 don't know.
 */
typedef int (*kindred_oracle_fn)(void *user, int64_t i, int64_t j);

/**
 * @brief Opaque handle to the settings of an active selection. Experimental.
 * Its options, set by name as a model's are (kindred_active_option_info()
 * lists them): "strategy" (choice, default "explore-consolidate"), "k"
 * (integer, default -1 = unknown), "budget" (integer, default 0) and "seed"
 * (integer, default 0).
 */
typedef struct kindred_active_options kindred_active_options;

/**
 * @brief Experimental. Create active-selection settings, every option at its default.
 * @param[out] out receives the handle, to be released with kindred_active_options_free().
 * @return ::KINDRED_OK, ::KINDRED_E_INVALID (NULL @p out), ::KINDRED_E_NOMEM.
 */
KINDRED_API kindred_status kindred_active_options_new(kindred_active_options **out);

/**
 * @brief Experimental. Release active-selection settings.
 * @param options handle from kindred_active_options_new(), or NULL (ignored).
 */
KINDRED_API void kindred_active_options_free(kindred_active_options *options);

/**
 * @brief Experimental. Set an integer option ("k", "budget", "seed"), as kindred_model_set_int().
 * @param options handle.
 * @param name option name (borrowed).
 * @param value the value.
 * @return ::KINDRED_OK; ::KINDRED_E_NOT_FOUND (no such option; the message
 *         lists the valid names); ::KINDRED_E_INVALID (NULL argument, value out
 *         of range or of the wrong type; the message gives the range).
 */
KINDRED_API kindred_status kindred_active_options_set_int(kindred_active_options *options,
                                                          const char *name, int64_t value);

/**
 * @brief Experimental. Set an option from a real value, as kindred_model_set_double().
 * @param options handle.
 * @param name option name (borrowed).
 * @param value the value (integral for the integer options).
 * @return as kindred_active_options_set_int().
 */
KINDRED_API kindred_status kindred_active_options_set_double(kindred_active_options *options,
                                                             const char *name, double value);

/**
 * @brief Experimental. Set an option from its text form ("random", "10"), as kindred_model_set_string().
 * @param options handle.
 * @param name option name (borrowed).
 * @param value NUL-terminated text (borrowed).
 * @return as kindred_active_options_set_int(); ::KINDRED_E_INVALID also for a
 *         strategy that is none of the known ones (the message lists them).
 */
KINDRED_API kindred_status kindred_active_options_set_string(kindred_active_options *options,
                                                             const char *name, const char *value);

/**
 * @brief Experimental. Read an option's current value in text form, as kindred_model_option().
 * @param options handle.
 * @param name option name (borrowed).
 * @param[out] buffer caller buffer; receives a NUL-terminated string.
 * @param capacity size of @p buffer in bytes.
 * @return ::KINDRED_OK; ::KINDRED_E_NOT_FOUND; ::KINDRED_E_BUFFER_TOO_SMALL
 *         (the message gives the size needed); ::KINDRED_E_INVALID.
 */
KINDRED_API kindred_status kindred_active_options_option(const kindred_active_options *options,
                                                         const char *name, char *buffer,
                                                         size_t capacity);

/**
 * @brief Experimental. Number of options of active selection. Thread-safe.
 * @param[out] count receives the number of options.
 * @return ::KINDRED_OK, ::KINDRED_E_INVALID.
 */
KINDRED_API kindred_status kindred_active_option_count(int64_t *count);

/**
 * @brief Experimental. Describe the option at @p index, as kindred_option_info(). Thread-safe.
 * The range of "strategy" lists the strategies ("explore-consolidate|explore|random").
 * @param index in [0, count) as given by kindred_active_option_count().
 * @param[out] name,type,default_value,range,doc as in kindred_option_info(); each may be NULL.
 * @return ::KINDRED_OK, ::KINDRED_E_INDEX.
 */
KINDRED_API kindred_status kindred_active_option_info(int64_t index, const char **name,
                                                      kindred_option_type *type,
                                                      const char **default_value,
                                                      const char **range, const char **doc);

/**
 * @brief Experimental. Ask an oracle about chosen pairs of points and store the answers in @p out_side.
 *
 * Strategies (option "strategy"; Basu, Bilenko, Banerjee & Mooney, section 3.4):
 * - "explore-consolidate": Explore (farthest-first traversal from a random
 *   point; a point cannot-linked to every neighbourhood found so far starts a
 *   new one) until k disjoint neighbourhoods are known, then Consolidate
 *   (random points, queried against the neighbourhoods nearest centroid
 *   first, until a must-link; when all but one neighbourhood answered
 *   "different", the must-link with the last one is inferred without a query
 *   and stored too). With k = -1 (unknown) only Explore runs, for the whole budget.
 * - "explore": Explore only, for the whole budget (k is ignored).
 * - "random": uniformly random distinct pairs (a baseline).
 *
 * Distances are squared Euclidean on the given points. A pair is never asked
 * twice: a don't-know (0) answer is ignored and that pair is not asked again
 * (Explore / Consolidate then try another member of the same neighbourhood).
 * Must-links are stored with value +1 and cannot-links with -1 (weight 1), in
 * the order they were obtained, added to whatever @p out_side already holds.
 * The selection stops when "budget" oracle calls have been made or no useful
 * query is left; it is deterministic for a given "seed" and oracle.
 *
 * @param options the settings (borrowed for the call): strategy, k (number of
 *        clusters, <= n, or -1 when unknown), budget (maximum number of oracle
 *        calls) and seed (first point of Explore, order of Consolidate, random pairs).
 * @param x,n,d,layout,ld dense points as in kindred_model_fit_dense() (borrowed for the call).
 * @param oracle callback answering +1 (same cluster), -1 (different), 0 (don't know)
 *        for a pair (i, j) with i < j; it is called from the calling thread only.
 *        Any other answer stops the selection with ::KINDRED_E_INVALID.
 * @param user passed unchanged to @p oracle.
 * @param[in,out] out_side side information about the same n points; receives the pairs.
 *        It is changed only when the call succeeds.
 * @return ::KINDRED_OK; ::KINDRED_E_INVALID (NULL pointer, NaN / Inf in @p x
 *         or a magnitude out of range as in kindred_model_fit_dense(),
 *         bad layout, k = 0, an oracle answer outside {-1, 0, 1});
 *         ::KINDRED_E_DIMENSION (k > n, @p ld too small, or @p out_side is
 *         about another n); ::KINDRED_E_NOMEM.
 * Thread-safety: distinct @p out_side handles may be filled from different
 * threads at once; one @p options handle may be read by several at once.
 */
KINDRED_API kindred_status kindred_active_select(const kindred_active_options *options,
                                                 const double *x, int64_t n, int64_t d,
                                                 kindred_layout layout, int64_t ld,
                                                 kindred_oracle_fn oracle, void *user,
                                                 kindred_side *out_side);

/* ------------------------------------------------------------------ */
/* Sharded fits: the points split by rows over the ranks of a communicator
 * (MPI processes, threads), which the host provides as callbacks that move
 * bytes; kindred does all the arithmetic and fixes the order of every sum
 * itself. See docs/distributed.md. */

/**
 * @brief A communicator between the ranks of a sharded fit, given by the host. Experimental.
 * Every callback is collective: all ranks call it in the same order, with
 * the same @p bytes (allgather) or the same @p counts (allgatherv), and it
 * returns 0 on success. An adapter for MPI is kindred_mpi.h.
 */
typedef struct kindred_comm {
    size_t struct_size; /**< sizeof(kindred_comm) as the caller compiled it: a later version may append members. */
    int rank;           /**< this rank, in [0, size). */
    int size;           /**< number of ranks, >= 1. */
    void *user;         /**< passed unchanged to the callbacks. */
    /** Every rank sends @p bytes bytes; @p recv receives size x @p bytes, rank r's at offset r x @p bytes. */
    int (*allgather)(void *user, const void *send, size_t bytes, void *recv);
    /** Rank r sends counts[r] bytes (@p bytes = counts[rank]); @p recv receives them at offset displs[r]. */
    int (*allgatherv)(void *user, const void *send, size_t bytes, void *recv, const size_t *counts,
                      const size_t *displs);
    /** @p bytes bytes of @p buffer on rank @p root are copied to @p buffer on every rank. */
    int (*broadcast)(void *user, void *buffer, size_t bytes, int root);
} kindred_comm;

/**
 * @brief Experimental. Fit the model on points split by rows over the ranks of @p comm.
 * Collective: every rank calls it with the same algorithm, options, @p d,
 * @p n_total and side information (checked: a hash of each is compared),
 * and its own rows [row_offset, row_offset + n_local) of the n_total points;
 * the ranks' rows cover [0, n_total) exactly once, in any sizes (empty ones
 * too) and any assignment of slices to ranks. After the call every rank
 * holds the whole model (centres, objective trace, iteration count) and the
 * labels of its own rows; for the algorithms whose kindred_algorithm_uses()
 * flags have ::KINDRED_USES_SHARDS these are bitwise those of
 * kindred_model_fit_dense() on all the points. Every rank returns the same
 * status and message (an error found on one rank, in its arguments, its
 * rows or its progress callback, is reported by all, naming the rank).
 * A NULL @p comm, or one of size 1, is kindred_model_fit_dense() on this
 * rank's rows (then row_offset must be 0 and n_local = n_total).
 * Rows are exchanged once in fixed chunks of 32768 (docs/distributed.md):
 * a shard whose first row and end are multiples of it (or the end of the
 * data) is used in place; another is copied once, with the few rows it
 * borrows from the next ranks. With "standardize" set, the scaling is that
 * of all n_total points (the same on every rank, and that of one process);
 * each rank standardises a copy of its own rows.
 * @param model handle.
 * @param comm the communicator (borrowed; used only during the call), or NULL.
 * @param x this rank's rows, n_local x d (borrowed), as in kindred_model_fit_dense().
 * @param n_local rows on this rank, >= 0 (x may be NULL when 0).
 * @param d,layout,ld as in kindred_model_fit_dense().
 * @param row_offset global index of this rank's first row.
 * @param n_total number of points on all ranks together.
 * @param side side information about all n_total points (the same on every rank), or NULL.
 * @return as kindred_model_fit_dense(); ::KINDRED_E_INVALID also for a
 *         malformed @p comm, an algorithm without sharded fits, options or
 *         side information that differ between ranks; ::KINDRED_E_DIMENSION
 *         for rows that do not cover [0, n_total) exactly once or a @p d
 *         that differs; ::KINDRED_E_IO when a callback fails.
 */
KINDRED_API kindred_status kindred_model_fit_dense_shard(kindred_model *model, const kindred_comm *comm,
                                                         const double *x, int64_t n_local, int64_t d,
                                                         kindred_layout layout, int64_t ld,
                                                         int64_t row_offset, int64_t n_total,
                                                         const kindred_side *side);

/**
 * @brief Experimental. kindred_model_fit_dense_shard() for CSR sparse rows.
 * Collective, as kindred_model_fit_dense_shard(): every rank passes its own
 * rows [row_offset, row_offset + n_local) of the n_total points as CSR
 * arrays of its own (indptr counted from this rank's first row, starting at
 * 0), and the same algorithm, options, @p d, @p n_total and side
 * information. The algorithm must accept sparse data
 * (::KINDRED_USES_SPARSE) and shard (::KINDRED_USES_SHARDS); then the
 * result is bitwise that of kindred_model_fit_csr() on all the rows, for
 * any number of ranks and any split. The rows of a chunk of 32768 that
 * straddles two shards are sent, entries and all, to the rank holding the
 * chunk's first row; a shard that borrows or lends rows copies its CSR
 * arrays once, any other is read in place. Every rank returns the same
 * status and message; an error in one rank's arrays names the rank and
 * counts its rows from 0 (and says where they start). A NULL @p comm, or
 * one of size 1, is kindred_model_fit_csr() on this rank's rows (then
 * row_offset must be 0 and n_local = n_total).
 * @param model handle.
 * @param comm the communicator (borrowed; used only during the call), or NULL.
 * @param n_local rows on this rank, >= 0 (the arrays may be NULL when 0).
 * @param d dimension (columns), > 0, the same on every rank.
 * @param indptr this rank's n_local + 1 offsets, non-decreasing, indptr[0] == 0 (borrowed).
 * @param indices column indices in [0, d), indptr[n_local] of them; each
 *        column at most once per row (borrowed).
 * @param values the entries, indptr[n_local] of them (borrowed).
 * @param row_offset global index of this rank's first row.
 * @param n_total number of points on all ranks together.
 * @param side side information about all n_total points (the same on every rank), or NULL.
 * @return as kindred_model_fit_dense_shard(); ::KINDRED_E_INVALID also when
 *         the algorithm does not accept sparse data, @p indptr does not start
 *         at 0 or decreases, or a row repeats a column; ::KINDRED_E_INDEX for
 *         a column index outside [0, d).
 */
KINDRED_API kindred_status kindred_model_fit_csr_shard(kindred_model *model, const kindred_comm *comm,
                                                       int64_t n_local, int64_t d, const int64_t *indptr,
                                                       const int64_t *indices, const double *values,
                                                       int64_t row_offset, int64_t n_total,
                                                       const kindred_side *side);

/** @} */

#ifdef __cplusplus
}
#endif

#endif /* KINDRED_H */
