# R interface to libkindred. Everything algorithm-specific comes from the library's registry.

# Turn an R error raised by the C glue ("kindred <status>: <message>") into a classed condition.
kindred_condition <- function(e, call = NULL) {
  msg <- conditionMessage(e)
  m <- regmatches(msg, regexec("^kindred ([^:]+): (.*)$", msg))[[1]]
  status <- if (length(m)) m[2] else "error"
  text <- if (length(m)) m[3] else msg
  structure(class = c(paste0("kindred_", gsub("[^a-z]+", "_", status)), "kindred_error", "error", "condition"),
            list(message = text, call = call, status = status))
}

kcall <- function(fn, ...) {
  call <- sys.call(-1)
  tryCatch(.Call(fn, ...), error = function(e) stop(kindred_condition(e, call)))
}

kindred_version <- function() .Call(kr_version)

kindred_algorithms <- function() .Call(kr_algorithms)

kindred_metrics <- function() .Call(kr_metrics)

.uses_flags <- c(pairs = 1L, triplets = 2L, partial_labels = 4L, sparse = 8L, no_k = 16L, transform = 32L,
                 soft = 64L)

kindred_algorithm_info <- function(algorithm) {
  info <- kcall(kr_algorithm_info, algorithm)
  flags <- info[[2]]
  list(algorithm = algorithm, summary = info[[1]],
       uses = names(.uses_flags)[bitwAnd(flags, .uses_flags) != 0L])
}

kindred_options <- function(algorithm) {
  o <- kcall(kr_options, algorithm)
  data.frame(name = o[[1]], type = c("int", "double", "bool", "choice")[o[[2]]],
             default = o[[3]], range = o[[4]], doc = o[[5]], stringsAsFactors = FALSE)
}

# Columns of a pairs / triplets argument: a matrix or data frame with that many columns, or a list.
.columns <- function(x, k, what) {
  if (is.null(x)) return(NULL)
  if (is.data.frame(x) || is.list(x)) x <- as.list(x)
  else if (is.matrix(x)) x <- lapply(seq_len(ncol(x)), function(j) x[, j])
  else stop(kindred_condition(simpleError(paste0("kindred invalid argument: ", what, " must be a matrix, data frame or list"))))
  if (length(x) != k)
    stop(kindred_condition(simpleError(sprintf("kindred invalid argument: %s needs %d columns, got %d", what, k, length(x)))))
  x
}

.as_index <- function(v) if (is.integer(v)) v else as.double(v)

# Labels as 0-based integer codes with -1 for unknown (NA, or 0 for integer class ids).
.recode <- function(labels) {
  if (is.factor(labels) || is.character(labels) || is.logical(labels)) {
    code <- as.integer(factor(labels)) - 1L
  } else {
    code <- as.integer(labels) - 1L
    code[!is.na(code) & code < 0L] <- -1L
  }
  code[is.na(code)] <- -1L
  code
}

kindred_fit <- function(x, algorithm = "kmeans", ..., pairs = NULL, triplets = NULL, partial_labels = NULL,
                        progress = NULL) {
  call <- sys.call()
  opts <- list(...)
  if (length(opts) && (is.null(names(opts)) || any(names(opts) == "")))
    stop(kindred_condition(simpleError("kindred invalid argument: options must be named, e.g. k = 3")))
  x <- .points(x, "x")
  p <- .columns(pairs, 3L, "pairs")
  if (!is.null(p)) p <- list(.as_index(p[[1]]), .as_index(p[[2]]), as.double(p[[3]]))
  t <- .columns(triplets, 4L, "triplets")
  if (!is.null(t)) t <- list(.as_index(t[[1]]), .as_index(t[[2]]), .as_index(t[[3]]), as.integer(t[[4]]))
  pl <- if (is.null(partial_labels)) NULL else .recode(partial_labels)
  failure <- new.env()
  cb <- NULL
  if (!is.null(progress)) {
    if (isTRUE(progress)) progress <- .progress_line(algorithm)
    if (!is.function(progress))
      stop(kindred_condition(simpleError("kindred invalid argument: progress must be TRUE or a function(iteration, objective, message)")))
    cb <- function(iteration, objective, message) {
      tryCatch(isTRUE(progress(iteration, objective, message)),
               error = function(e) { failure$condition <- e; TRUE },
               interrupt = function(e) { failure$condition <- e; TRUE })
    }
  }
  ptr <- tryCatch(.Call(kr_fit, algorithm, opts, x, p, t, pl, cb),
                  error = function(e) {
                    if (!is.null(failure$condition)) stop(failure$condition)
                    stop(kindred_condition(e, call))
                  })
  if (!is.null(failure$condition)) stop(failure$condition)
  .model(ptr)
}

.progress_line <- function(algorithm) {
  function(iteration, objective, message) {
    # stderr, not message(): the callback runs in a top-level context (see kr_fit), so that no
    # condition handler can long-jump through the library; handlers outside kindred_fit are not seen.
    cat(sprintf("kindred %s: iteration %d, objective %.6g  %s\n", algorithm, as.integer(iteration), objective, message),
        file = stderr())
    FALSE
  }
}

.model <- function(ptr) {
  r <- kcall(kr_results, ptr)
  structure(list(ptr = ptr, algorithm = .Call(kr_algorithm_of, ptr), n = r[[1]], d = r[[2]], clusters = r[[3]],
                 iterations = r[[4]], converged = r[[5]], objective = r[[6]], cluster = r[[7]],
                 centers = r[[8]][["centers"]], arrays = r[[8]]),
            class = "kindred_model")
}

print.kindred_model <- function(x, ...) {
  cat(sprintf("kindred %s model: %d points in %d dimensions, %d clusters, %d iterations%s\n",
              x$algorithm, as.integer(x$n), as.integer(x$d), as.integer(x$clusters), as.integer(x$iterations),
              if (x$converged) "" else " (not converged)"))
  cat("result arrays:", paste(names(x$arrays), collapse = ", "), "\n")
  invisible(x)
}

# Points for the library: a double matrix (passed without a copy), or a Matrix package dgCMatrix
# turned into the library's 0-based CSR, list(n, d, indptr, indices, values). The CSC -> CSR
# reordering is done here so that the Matrix package is not needed at run time.
.points <- function(x, what, dense_only = FALSE) {
  if (inherits(x, "dgCMatrix") && !dense_only) {
    n <- x@Dim[1]; d <- x@Dim[2]
    rows <- x@i
    cols <- rep.int(seq_len(d) - 1L, diff(x@p))
    o <- order(rows, cols)
    indptr <- c(0L, cumsum(tabulate(rows + 1L, nbins = n)))
    return(list(n, d, as.integer(indptr), as.integer(cols[o]), as.double(x@x[o])))
  }
  if (inherits(x, "sparseMatrix"))
    stop(kindred_condition(simpleError(sprintf(
      "kindred invalid argument: %s: a sparse matrix must be a dgCMatrix (as(%s, \"CsparseMatrix\"))%s",
      what, what, if (dense_only) ", and this function needs a dense one (as.matrix)" else ""))))
  if (is.data.frame(x)) x <- as.matrix(x)
  if (!is.matrix(x) || !is.numeric(x))
    stop(kindred_condition(simpleError(sprintf(
      "kindred invalid argument: %s must be a numeric matrix (points in rows) or a dgCMatrix", what))))
  if (storage.mode(x) != "double") storage.mode(x) <- "double"   # doubles are passed without a copy
  x
}

.newdata <- function(newdata) .points(newdata, "newdata")

predict.kindred_model <- function(object, newdata, ...) kcall(kr_predict, object$ptr, .newdata(newdata))

kindred_transform <- function(model, x) kcall(kr_transform, model$ptr, .points(x, "x", dense_only = TRUE))

summary.kindred_model <- function(object, ...) {
  sizes <- table(factor(object$cluster, levels = seq_len(max(c(0L, object$cluster), na.rm = TRUE))))
  structure(list(algorithm = object$algorithm, n = object$n, d = object$d, clusters = object$clusters,
                 sizes = sizes, iterations = object$iterations, converged = object$converged,
                 objective = object$objective, arrays = vapply(object$arrays, function(a)
                   paste(dim(a), collapse = " x "), "")),
            class = "summary.kindred_model")
}

print.summary.kindred_model <- function(x, ...) {
  cat(sprintf("kindred %s: %d points in %d dimensions\n", x$algorithm, as.integer(x$n), as.integer(x$d)))
  cat(sprintf("%d clusters; %d iterations, %s; objective %.6g\n", as.integer(x$clusters),
              as.integer(x$iterations), if (x$converged) "converged" else "not converged", x$objective))
  cat("cluster sizes:\n")
  print(x$sizes)
  if (length(x$arrays)) {
    cat("result arrays:\n")
    print(noquote(x$arrays))
  }
  invisible(x)
}

# The points coloured by cluster on their first two principal components (the model does not keep
# the points, so they are given again), with the centres projected when the model has them.
plot.kindred_model <- function(x, data, main = NULL, ...) {
  if (missing(data))
    stop(kindred_condition(simpleError("kindred invalid argument: plot(model, data): give the points that were clustered")))
  data <- as.matrix(data)
  if (nrow(data) != x$n)
    stop(kindred_condition(simpleError(sprintf(
      "kindred dimension mismatch: data has %d rows, the model was fitted on %d points", nrow(data), as.integer(x$n)))))
  pc <- stats::prcomp(data)
  k <- min(2L, ncol(pc$x))
  xy <- cbind(pc$x[, seq_len(k), drop = FALSE], matrix(0, nrow(data), 2L - k))
  if (is.null(main)) main <- sprintf("kindred %s: %d clusters", x$algorithm, as.integer(x$clusters))
  graphics::plot(xy[, 1], xy[, 2], col = x$cluster, pch = 19, xlab = "PC1", ylab = "PC2", main = main, ...)
  if (!is.null(x$centers) && ncol(x$centers) == ncol(data)) {
    c2 <- scale(x$centers, center = pc$center, scale = if (isFALSE(pc$scale)) FALSE else pc$scale) %*% pc$rotation
    graphics::points(c2[, 1], if (k > 1) c2[, 2] else 0, pch = 4, cex = 2, lwd = 3, col = seq_len(nrow(c2)))
  }
  invisible(xy)
}

kindred_array <- function(model, name) {
  a <- model$arrays[[name]]
  if (is.null(a))
    stop(kindred_condition(simpleError(sprintf("kindred unknown option: the model has no array %s; it has %s",
                                               name, paste(names(model$arrays), collapse = ", ")))))
  a
}

kindred_save <- function(model, path) invisible(kcall(kr_save, model$ptr, path.expand(path)))

kindred_load <- function(path) .model(kcall(kr_load, path.expand(path)))

kindred_metric <- function(name, truth, predicted) {
  kcall(kr_metric, name, as.integer(factor(truth, exclude = NULL)) - 1L, as.integer(factor(predicted, exclude = NULL)) - 1L)
}

kindred_sample_pairs <- function(labels, count = NULL, rate = NULL, noise = 0, seed = 0) {
  if (is.null(count) == is.null(rate))
    stop(kindred_condition(simpleError("kindred invalid argument: give exactly one of count and rate")))
  p <- kcall(kr_sample_pairs, .recode(labels), if (is.null(count)) -1 else count, if (is.null(rate)) 0 else rate,
             noise, seed)
  data.frame(i = p[[1]], j = p[[2]], value = p[[3]])
}

kindred_sample_triplets <- function(labels, count, noise = 0, seed = 0) {
  t <- kcall(kr_sample_triplets, .recode(labels), count, noise, seed)
  data.frame(a = t[[1]], b = t[[2]], c = t[[3]], answer = as.integer(t[[4]]))
}

kindred_active_select <- function(x, oracle, budget, k = NULL, strategy = NULL, seed = 0) {
  call <- sys.call()
  x <- .points(x, "x", dense_only = TRUE)
  if (!is.function(oracle))
    stop(kindred_condition(simpleError("kindred invalid argument: oracle must be a function(i, j)")))
  failure <- new.env()
  answer <- function(i, j) {
    tryCatch({
      a <- oracle(i, j)
      a <- if (is.null(a) || (length(a) == 1 && is.na(a))) 0L
           else if (is.logical(a) && length(a) == 1) (if (a) 1L else -1L)
           else as.integer(a)
      if (length(a) != 1 || !(a %in% c(-1L, 0L, 1L)))
        stop("oracle: the answer must be 1, -1, 0, TRUE, FALSE or NA")
      a
    }, error = function(e) { failure$condition <- e; 2L },
       interrupt = function(e) { failure$condition <- e; 2L })
  }
  p <- tryCatch(.Call(kr_active_select, x, answer, budget, if (is.null(k)) -1 else k, strategy, seed),
                error = function(e) {
                  if (!is.null(failure$condition)) stop(failure$condition)
                  stop(kindred_condition(e, call))
                })
  data.frame(i = p[[1]], j = p[[2]], value = p[[3]])
}
