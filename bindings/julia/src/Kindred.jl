"""
    Kindred

Clustering with side information (must-link / cannot-link pairs, relative triplets, partial
labels): a Julia binding of the libkindred C library, through `ccall`.

Every algorithm of the installed library is available by name with its options as keywords
(read from the library's registry, nothing here is per algorithm):

```julia
using Kindred
X = rand(100, 2)                                  # 100 points (rows) in 2-D, passed without a copy
m = Kindred.fit("kmeans", X; k = 3, seed = 1, pairs = ([1, 2], [3, 4], [1.0, -1.0]))
labels(m), centers(m), predict(m, X)
```

Indices and labels are 1-based on the Julia side (0 = unknown / none); the binding converts.
The library is found through `KINDRED_LIB` (the file or its folder), `KINDRED_PREFIX` (install
prefix), `pkg-config`, or the system loader, in that order.
"""
module Kindred

using Libdl

export KindredError, Model, SideInfo, fit, fit!, predict, transform, labels, centers, getarray,
       arraynames, nclusters, fitsummary, save, algorithms, algorithm_summary, algorithm_uses, options,
       metric, metrics, sample_pairs, sample_triplets, add_pairs!, add_triplets!,
       set_partial_labels!, counts, side_pairs, side_triplets, components, check_consistent,
       setoption!, getoption, active_select

# The SONAME: ccall resolves it to the copy __init__ loaded (glibc matches loaded libraries by SONAME).
const libkindred = "libkindred.so.0"

const KINDRED_OK = Cint(0)
const KINDRED_E_DIMENSION = Cint(2)
const KINDRED_E_BUFFER_TOO_SMALL = Cint(13)
const KINDRED_E_CANCELLED = Cint(7)
const KINDRED_ROW_MAJOR = Cint(101)
const KINDRED_COL_MAJOR = Cint(102)

function _candidates()
    c = String[]
    lib = get(ENV, "KINDRED_LIB", "")
    if !isempty(lib)
        push!(c, isdir(lib) ? joinpath(lib, libkindred) : lib)
    end
    prefix = get(ENV, "KINDRED_PREFIX", "")
    if !isempty(prefix)
        for d in ("lib", "lib64", joinpath("lib", "x86_64-linux-gnu"), joinpath("lib", "aarch64-linux-gnu"))
            push!(c, joinpath(prefix, d, libkindred))
        end
    end
    try
        libdir = strip(read(`pkg-config --variable=libdir kindred`, String))
        isempty(libdir) || push!(c, joinpath(libdir, libkindred))
    catch
    end
    push!(c, libkindred)
    return c
end

const LIBRARY_PATH = Ref{String}("")

function __init__()
    for path in _candidates()
        if path == libkindred || isfile(path)
            h = Libdl.dlopen(path, Libdl.RTLD_GLOBAL; throw_error = false)
            if h !== nothing
                LIBRARY_PATH[] = path
                return
            end
        end
    end
    @warn "Kindred: cannot load $libkindred; set KINDRED_LIB or KINDRED_PREFIX"
end

# ---------------------------------------------------------------------------------------------
# Errors

"""
    KindredError(status, name, message)

A failure reported by the library: the status code, its name and `kindred_last_error()`.
"""
struct KindredError <: Exception
    status::Int
    name::String
    message::String
end

Base.showerror(io::IO, e::KindredError) = print(io, "KindredError(", e.name, "): ", e.message)

_str(p::Ptr{UInt8}) = p == C_NULL ? "" : unsafe_string(p)

function _error(status::Integer)
    msg = _str(ccall((:kindred_last_error, libkindred), Ptr{UInt8}, ()))
    name = _str(ccall((:kindred_status_string, libkindred), Ptr{UInt8}, (Cint,), status))
    return KindredError(Int(status), name, isempty(msg) ? name : msg)
end

_check(status::Integer) = status == KINDRED_OK ? nothing : throw(_error(status))

_argerror(msg) = KindredError(1, "invalid argument", msg)

function _cname(s::AbstractString)
    occursin('\0', s) && throw(_argerror("name contains a NUL byte: $(repr(s))"))
    return String(s)
end

# ---------------------------------------------------------------------------------------------
# Registry

"""Names of all algorithms of the library."""
function algorithms()
    n = ccall((:kindred_algorithm_count, libkindred), Int64, ())
    return [_str(ccall((:kindred_algorithm_name, libkindred), Ptr{UInt8}, (Int64,), k)) for k in 0:n-1]
end

"""One-line description of an algorithm."""
function algorithm_summary(algorithm::AbstractString)
    out = Ref{Ptr{UInt8}}(C_NULL)
    _check(ccall((:kindred_algorithm_summary, libkindred), Cint, (Cstring, Ref{Ptr{UInt8}}), _cname(algorithm), out))
    return _str(out[])
end

"""What an algorithm uses and offers, as a set of symbols (:pairs, :triplets, :partial_labels, :sparse, :no_k,
:transform, :soft)."""
function algorithm_uses(algorithm::AbstractString)
    flags = Ref{Cint}(0)
    _check(ccall((:kindred_algorithm_uses, libkindred), Cint, (Cstring, Ref{Cint}), _cname(algorithm), flags))
    names = (:pairs, :triplets, :partial_labels, :sparse, :no_k, :transform, :soft)
    return Set(names[k] for k in 1:length(names) if flags[] & (1 << (k - 1)) != 0)
end

"""One option of an algorithm's table."""
struct OptionInfo
    name::String
    kind::Symbol   # :int, :double, :bool or :choice
    default::String
    range::String
    doc::String
end

"""The option table of an algorithm."""
function options(algorithm::AbstractString)
    alg = _cname(algorithm)
    count = Ref{Int64}(0)
    _check(ccall((:kindred_option_count, libkindred), Cint, (Cstring, Ref{Int64}), alg, count))
    result = OptionInfo[]
    for k in 0:count[]-1
        name, def, range, doc = Ref{Ptr{UInt8}}(C_NULL), Ref{Ptr{UInt8}}(C_NULL), Ref{Ptr{UInt8}}(C_NULL), Ref{Ptr{UInt8}}(C_NULL)
        typ = Ref{Cint}(0)
        _check(ccall((:kindred_option_info, libkindred), Cint,
                     (Cstring, Int64, Ref{Ptr{UInt8}}, Ref{Cint}, Ref{Ptr{UInt8}}, Ref{Ptr{UInt8}}, Ref{Ptr{UInt8}}),
                     alg, k, name, typ, def, range, doc))
        kind = typ[] == 1 ? :int : typ[] == 2 ? :double : typ[] == 3 ? :bool : :choice
        push!(result, OptionInfo(_str(name[]), kind, _str(def[]), _str(range[]), _str(doc[])))
    end
    return result
end

"""Names of the metrics known to [`metric`](@ref)."""
function metrics()
    n = ccall((:kindred_metric_count, libkindred), Int64, ())
    return [_str(ccall((:kindred_metric_name, libkindred), Ptr{UInt8}, (Int64,), k)) for k in 0:n-1]
end

version() = _str(ccall((:kindred_version, libkindred), Ptr{UInt8}, ()))

# ---------------------------------------------------------------------------------------------
# Side information (1-based indices on the Julia side)

"""
    SideInfo(n; pairs = nothing, triplets = nothing, partial_labels = nothing)

Side information about `n` points. `pairs` is `(i, j, value)` (vectors; value > 0 must-link of that
weight, < 0 cannot-link) or an m x 3 matrix; `triplets` is `(a, b, c, answer)` or an m x 4 matrix,
answer +1 (a closer to b), -1 (closer to c), 0 (don't know); `partial_labels` has one class per point
(1, 2, ...; 0 or `missing` = unknown). Indices are 1-based.
"""
mutable struct SideInfo
    ptr::Ptr{Cvoid}
    function SideInfo(n::Integer; pairs = nothing, triplets = nothing, partial_labels = nothing)
        out = Ref{Ptr{Cvoid}}(C_NULL)
        _check(ccall((:kindred_side_new, libkindred), Cint, (Ref{Ptr{Cvoid}}, Int64), out, Int64(n)))
        s = finalizer(_free_side, new(out[]))
        pairs === nothing || add_pairs!(s, pairs)
        triplets === nothing || add_triplets!(s, triplets)
        partial_labels === nothing || set_partial_labels!(s, partial_labels)
        return s
    end
end

# Passing the object itself (not its .ptr) to ccall keeps it rooted for the call, so that its
# finalizer cannot run while the library uses the handle.
Base.unsafe_convert(::Type{Ptr{Cvoid}}, s::SideInfo) = s.ptr

function _free_side(s::SideInfo)
    if s.ptr != C_NULL
        ccall((:kindred_side_free, libkindred), Cvoid, (Ptr{Cvoid},), s.ptr)
        s.ptr = C_NULL
    end
end

_columns(x::Tuple, k) = length(x) == k ? collect(x) : throw(_argerror("expected a tuple of $k vectors"))
_columns(x::AbstractMatrix, k) = size(x, 2) == k ? [x[:, c] for c in 1:k] : throw(_argerror("expected a matrix with $k columns"))
_columns(x, k) = throw(_argerror("expected a tuple of $k vectors or a matrix with $k columns"))

function _index0(v, what)
    out = Vector{Int64}(undef, length(v))
    for (k, x) in enumerate(v)
        (x isa Integer || (x isa Real && isinteger(x))) || throw(_argerror("$what: index $x is not a whole number"))
        out[k] = Int64(x) - 1
    end
    return out
end

function _lengths(what, cols...)
    all(length(c) == length(cols[1]) for c in cols) || throw(KindredError(2, "dimension mismatch", "$what: columns of different lengths"))
    return Int64(length(cols[1]))
end

"""Add pairs `(i, j, value)` (1-based indices). Returns the SideInfo."""
function add_pairs!(s::SideInfo, pairs)
    i, j, v = _columns(pairs, 3)
    i0, j0, val = _index0(i, "pairs"), _index0(j, "pairs"), Vector{Float64}(v)
    m = _lengths("pairs", i0, j0, val)
    _check(ccall((:kindred_side_add_pairs, libkindred), Cint, (Ptr{Cvoid}, Ptr{Int64}, Ptr{Int64}, Ptr{Float64}, Int64),
                 s, i0, j0, val, m))
    return s
end

"""Add triplets `(a, b, c, answer)` (1-based indices; answer +1, -1 or 0). Returns the SideInfo."""
function add_triplets!(s::SideInfo, triplets)
    a, b, c, ans = _columns(triplets, 4)
    a0, b0, c0 = _index0(a, "triplets"), _index0(b, "triplets"), _index0(c, "triplets")
    answer = Vector{Int32}(undef, length(ans))
    for (k, x) in enumerate(ans)
        x in (-1, 0, 1) || throw(_argerror("triplets: answer $x is not -1, 0 or 1"))
        answer[k] = Int32(x)
    end
    m = _lengths("triplets", a0, b0, c0, answer)
    _check(ccall((:kindred_side_add_triplets, libkindred), Cint,
                 (Ptr{Cvoid}, Ptr{Int64}, Ptr{Int64}, Ptr{Int64}, Ptr{Int32}, Int64), s, a0, b0, c0, answer, m))
    return s
end

# Julia class ids (1, 2, ...; 0 or missing = unknown) as the library's (0, 1, ...; -1)
function _labels0(labels, what)
    out = Vector{Int32}(undef, length(labels))
    for (k, x) in enumerate(labels)
        if x === missing || x == 0
            out[k] = -1
        elseif x isa Real && isinteger(x) && 1 <= x <= typemax(Int32)
            out[k] = Int32(x) - Int32(1)
        else
            throw(_argerror("$what: label $x at $k is not a positive whole number, 0 or missing"))
        end
    end
    return out
end

"""Replace the partial labels (1, 2, ...; 0 or `missing` = unknown). Returns the SideInfo."""
function set_partial_labels!(s::SideInfo, labels)
    lab = _labels0(labels, "partial_labels")
    _check(ccall((:kindred_side_set_partial_labels, libkindred), Cint, (Ptr{Cvoid}, Ptr{Int32}, Int64), s, lab, length(lab)))
    return s
end

"""`(n, pairs, triplets, labelled)`: what a SideInfo holds."""
function counts(s::SideInfo)
    n, p, t, l = Ref{Int64}(0), Ref{Int64}(0), Ref{Int64}(0), Ref{Int64}(0)
    _check(ccall((:kindred_side_counts, libkindred), Cint, (Ptr{Cvoid}, Ref{Int64}, Ref{Int64}, Ref{Int64}, Ref{Int64}),
                 s, n, p, t, l))
    return (n = n[], pairs = p[], triplets = t[], labelled = l[])
end

"""The distinct pairs `(i, j, value)`, 1-based, i < j, sorted."""
function side_pairs(s::SideInfo)
    m = counts(s).pairs
    i, j, v = Vector{Int64}(undef, m), Vector{Int64}(undef, m), Vector{Float64}(undef, m)
    _check(ccall((:kindred_side_pairs, libkindred), Cint, (Ptr{Cvoid}, Ptr{Int64}, Ptr{Int64}, Ptr{Float64}, Int64),
                 s, i, j, v, m))
    return (i .+ 1, j .+ 1, v)
end

"""The triplets `(a, b, c, answer)`, 1-based, in the order added."""
function side_triplets(s::SideInfo)
    m = counts(s).triplets
    a, b, c = Vector{Int64}(undef, m), Vector{Int64}(undef, m), Vector{Int64}(undef, m)
    ans = Vector{Int32}(undef, m)
    _check(ccall((:kindred_side_triplets, libkindred), Cint,
                 (Ptr{Cvoid}, Ptr{Int64}, Ptr{Int64}, Ptr{Int64}, Ptr{Int32}, Int64), s, a, b, c, ans, m))
    return (a .+ 1, b .+ 1, c .+ 1, Int.(ans))
end

"""Must-link component (1, 2, ...) of each point."""
function components(s::SideInfo)
    n = counts(s).n
    comp = Vector{Int64}(undef, n)
    _check(ccall((:kindred_side_components, libkindred), Cint, (Ptr{Cvoid}, Ptr{Int64}, Int64, Ptr{Int64}),
                 s, comp, n, C_NULL))
    return comp .+ 1
end

"""Throw a KindredError (infeasible) when a cannot-link joins two points of one must-link component."""
check_consistent(s::SideInfo) = _check(ccall((:kindred_side_check_consistent, libkindred), Cint, (Ptr{Cvoid},), s))

"""
    sample_pairs(labels; count = nothing, rate = nothing, noise = 0.0, seed = 0)

Sample must-link / cannot-link pairs from class labels (1, 2, ...; 0 = never drawn). Returns
`(i, j, value)` with 1-based indices and value +1 / -1.
"""
function sample_pairs(labels; count = nothing, rate = nothing, noise = 0.0, seed = 0)
    (count === nothing) == (rate === nothing) && throw(_argerror("sample_pairs: give exactly one of count and rate"))
    lab = _labels0(labels, "labels")
    s = SideInfo(length(lab))
    _check(ccall((:kindred_sample_pairs, libkindred), Cint, (Ptr{Cvoid}, Ptr{Int32}, Int64, Int64, Cdouble, Cdouble, UInt64),
                 s, lab, length(lab), count === nothing ? Int64(-1) : Int64(count),
                 rate === nothing ? 0.0 : Float64(rate), Float64(noise), UInt64(seed)))
    return side_pairs(s)
end

"""
    sample_triplets(labels; count, noise = 0.0, seed = 0)

Sample relative triplets from class labels. Returns `(a, b, c, answer)`, 1-based.
"""
function sample_triplets(labels; count::Integer, noise = 0.0, seed = 0)
    lab = _labels0(labels, "labels")
    s = SideInfo(length(lab))
    _check(ccall((:kindred_sample_triplets, libkindred), Cint, (Ptr{Cvoid}, Ptr{Int32}, Int64, Int64, Cdouble, UInt64),
                 s, lab, length(lab), Int64(count), Float64(noise), UInt64(seed)))
    return side_triplets(s)
end

# ---------------------------------------------------------------------------------------------
# Models

"""
    Model(algorithm; options...)

A kindred model: an algorithm of [`algorithms`](@ref) with options set by name (see
[`options`](@ref)). Fit it with [`fit!`](@ref); freed by the garbage collector.
"""
mutable struct Model
    ptr::Ptr{Cvoid}
    function Model(ptr::Ptr{Cvoid})
        return finalizer(_free_model, new(ptr))
    end
end

function Model(algorithm::AbstractString; opts...)
    out = Ref{Ptr{Cvoid}}(C_NULL)
    _check(ccall((:kindred_model_new, libkindred), Cint, (Ref{Ptr{Cvoid}}, Cstring), out, _cname(algorithm)))
    m = Model(out[])
    for (name, value) in opts
        setoption!(m, String(name), value)
    end
    return m
end

Base.unsafe_convert(::Type{Ptr{Cvoid}}, m::Model) = m.ptr

function _free_model(m::Model)
    if m.ptr != C_NULL
        ccall((:kindred_model_free, libkindred), Cvoid, (Ptr{Cvoid},), m.ptr)
        m.ptr = C_NULL
    end
end

algorithm(m::Model) = _str(ccall((:kindred_model_algorithm, libkindred), Ptr{UInt8}, (Ptr{Cvoid},), m))

Base.show(io::IO, m::Model) = print(io, "Kindred.Model(\"", algorithm(m), "\")")

"""Set an option by name: integers and Bools as integers, reals as reals, strings and symbols as text."""
function setoption!(m::Model, name::AbstractString, value)
    n = _cname(name)
    status = if value isa Bool || value isa Integer
        (typemin(Int64) <= value <= typemax(Int64)) || throw(_argerror("option $name: $value does not fit in 64 bits"))
        ccall((:kindred_model_set_int, libkindred), Cint, (Ptr{Cvoid}, Cstring, Int64), m, n, Int64(value))
    elseif value isa Real
        ccall((:kindred_model_set_double, libkindred), Cint, (Ptr{Cvoid}, Cstring, Cdouble), m, n, Float64(value))
    elseif value isa AbstractString || value isa Symbol
        ccall((:kindred_model_set_string, libkindred), Cint, (Ptr{Cvoid}, Cstring, Cstring), m, n, _cname(string(value)))
    else
        throw(_argerror("option $name: expected a number, Bool, String or Symbol, got $(typeof(value))"))
    end
    _check(status)
    return m
end

"""An option's current value in text form."""
function getoption(m::Model, name::AbstractString)
    capacity = 256
    while true
        buf = Vector{UInt8}(undef, capacity)
        status = ccall((:kindred_model_option, libkindred), Cint, (Ptr{Cvoid}, Cstring, Ptr{UInt8}, Csize_t),
                       m, _cname(name), buf, capacity)
        if status == KINDRED_E_BUFFER_TOO_SMALL && capacity < (1 << 20)
            capacity *= 16
            continue
        end
        _check(status)
        return unsafe_string(pointer(buf))
    end
end

# Strided with unit row stride: a column-major block the C API reads in place.
_inplace(X::StridedMatrix{T}) where {T} = stride(X, 1) == 1 && stride(X, 2) >= max(size(X, 1), 1)
_inplace(X::AbstractMatrix) = false

# A matrix as the C API reads it: (array kept alive, n, d, layout, ld). `dims = 1`: points are rows
# (n x d); `dims = 2`: points are columns (d x n). Float64 strided matrices are passed in place; with
# `float32 = true` Float32 ones too (for the `_f32` entry points, which widen each value to double
# where they read it: the result is that of the Float64 matrix of the same values), and other
# Float32 matrices (an adjoint, a view with a step) are copied to a Matrix{Float32}. Anything else
# is converted to a Matrix{Float64}.
function _dense(X::AbstractMatrix, dims::Integer; float32::Bool = false)
    dims in (1, 2) || throw(_argerror("dims must be 1 (points are rows) or 2 (points are columns)"))
    A = if eltype(X) === Float64 && _inplace(X)
        X
    elseif float32 && eltype(X) === Float32
        _inplace(X) ? X : Matrix{Float32}(X)
    else
        try
            Matrix{Float64}(X)
        catch
            throw(_argerror("cannot convert a $(typeof(X)) to a Float64 matrix"))
        end
    end
    rows, cols = size(A)
    (rows == 0 || cols == 0) && throw(_argerror("empty matrix of size $(size(A))"))
    ld = Int64(max(stride(A, 2), rows))
    return dims == 1 ? (A, Int64(rows), Int64(cols), KINDRED_COL_MAJOR, ld) :
                       (A, Int64(cols), Int64(rows), KINDRED_ROW_MAJOR, ld)
end

_dense(X::AbstractArray, dims; float32::Bool = false) = throw(_argerror("expected a matrix (points x features), got an array of size $(size(X)); use reshape(x, :, 1) for one feature"))

# The dense entry points, by element type: Float32 points go to the `_f32` functions.
_fit_dense(m, A::AbstractMatrix{Float64}, n, d, layout, ld, side) =
    ccall((:kindred_model_fit_dense, libkindred), Cint, (Ptr{Cvoid}, Ptr{Float64}, Int64, Int64, Cint, Int64, Ptr{Cvoid}),
          m, A, n, d, layout, ld, side)
_fit_dense(m, A::AbstractMatrix{Float32}, n, d, layout, ld, side) =
    ccall((:kindred_model_fit_dense_f32, libkindred), Cint, (Ptr{Cvoid}, Ptr{Float32}, Int64, Int64, Cint, Int64, Ptr{Cvoid}),
          m, A, n, d, layout, ld, side)

_predict_dense(m, A::AbstractMatrix{Float64}, n, d, layout, ld, out, capacity) =
    ccall((:kindred_model_predict_dense, libkindred), Cint,
          (Ptr{Cvoid}, Ptr{Float64}, Int64, Int64, Cint, Int64, Ptr{Int32}, Int64), m, A, n, d, layout, ld, out, capacity)
_predict_dense(m, A::AbstractMatrix{Float32}, n, d, layout, ld, out, capacity) =
    ccall((:kindred_model_predict_dense_f32, libkindred), Cint,
          (Ptr{Cvoid}, Ptr{Float32}, Int64, Int64, Cint, Int64, Ptr{Int32}, Int64), m, A, n, d, layout, ld, out, capacity)

_transform_dense(m, A::AbstractMatrix{Float64}, n, d, layout, ld, out, capacity) =
    ccall((:kindred_model_transform_dense, libkindred), Cint,
          (Ptr{Cvoid}, Ptr{Float64}, Int64, Int64, Cint, Int64, Ptr{Float64}, Int64), m, A, n, d, layout, ld, out, capacity)
_transform_dense(m, A::AbstractMatrix{Float32}, n, d, layout, ld, out, capacity) =
    ccall((:kindred_model_transform_dense_f32, libkindred), Cint,
          (Ptr{Cvoid}, Ptr{Float32}, Int64, Int64, Cint, Int64, Ptr{Float64}, Int64), m, A, n, d, layout, ld, out, capacity)

# Progress trampoline: never lets a Julia exception unwind through C.
mutable struct _ProgressState
    f::Any
    error::Any
end

function _progress_trampoline(user::Ptr{Cvoid}, iteration::Int64, objective::Cdouble, message::Ptr{UInt8})::Cint
    state = unsafe_pointer_to_objref(user)::_ProgressState
    state.error === nothing || return Cint(1)
    try
        return state.f(iteration, objective, _str(message)) === true ? Cint(1) : Cint(0)
    catch e
        state.error = (e, catch_backtrace())
        return Cint(1)
    end
end

"""
    fit!(m, X; dims = 1, pairs, triplets, partial_labels, side, progress)

Fit the model on the points of `X` (rows by default; `dims = 2` when points are columns). Float64
and Float32 matrices and their strided views are read in place (Float32 points give the fit of the
Float64 points of the same values); other element types are converted to Float64. Side
information as in [`SideInfo`](@ref), or `side = SideInfo(...)`. `progress(iteration, objective,
message)` is called after each iteration; returning `true` stops the fit (a KindredError
"cancelled"). Exceptions thrown by `progress` are rethrown after the library returns.
"""
function fit!(m::Model, X::AbstractArray; dims::Integer = 1, pairs = nothing, triplets = nothing,
              partial_labels = nothing, side::Union{Nothing,SideInfo} = nothing, progress = nothing)
    A, n, d, layout, ld = _dense(X, dims; float32 = true)
    if side === nothing && (pairs !== nothing || triplets !== nothing || partial_labels !== nothing)
        side = SideInfo(n; pairs = pairs, triplets = triplets, partial_labels = partial_labels)
    end
    sideptr = side === nothing ? C_NULL : side.ptr
    state = _ProgressState(progress, nothing)
    if progress !== nothing
        cb = @cfunction(_progress_trampoline, Cint, (Ptr{Cvoid}, Int64, Cdouble, Ptr{UInt8}))
        _check(ccall((:kindred_model_set_progress, libkindred), Cint, (Ptr{Cvoid}, Ptr{Cvoid}, Ptr{Cvoid}),
                     m, cb, pointer_from_objref(state)))
    end
    status = GC.@preserve A side state _fit_dense(m, A, n, d, layout, ld, sideptr)
    if progress !== nothing
        ccall((:kindred_model_set_progress, libkindred), Cint, (Ptr{Cvoid}, Ptr{Cvoid}, Ptr{Cvoid}), m, C_NULL, C_NULL)
    end
    if state.error !== nothing
        e, bt = state.error
        throw(e)  # the callback's own exception (InterruptException included)
    end
    _check(status)
    return m
end

"""
    fit(algorithm, X; dims = 1, pairs, triplets, partial_labels, side, progress, options...)

Create a [`Model`](@ref) with the given options and [`fit!`](@ref) it.
"""
function fit(algorithm::AbstractString, X::AbstractArray; dims::Integer = 1, pairs = nothing, triplets = nothing,
             partial_labels = nothing, side = nothing, progress = nothing, opts...)
    return fit!(Model(algorithm; opts...), X; dims = dims, pairs = pairs, triplets = triplets,
                partial_labels = partial_labels, side = side, progress = progress)
end

"""`(n, d, clusters, iterations, converged, objective)` of a fitted model."""
function fitsummary(m::Model)
    n, d, k, it = Ref{Int64}(0), Ref{Int64}(0), Ref{Int64}(0), Ref{Int64}(0)
    conv, obj = Ref{Cint}(0), Ref{Cdouble}(0.0)
    _check(ccall((:kindred_model_summary, libkindred), Cint,
                 (Ptr{Cvoid}, Ref{Int64}, Ref{Int64}, Ref{Int64}, Ref{Int64}, Ref{Cint}, Ref{Cdouble}), m, n, d, k, it, conv, obj))
    return (n = n[], d = d[], clusters = k[], iterations = it[], converged = conv[] != 0, objective = obj[])
end

nclusters(m::Model) = fitsummary(m).clusters

"""Cluster of each fitted point: 1, 2, ... (0 for none)."""
function labels(m::Model)
    n = fitsummary(m).n
    out = Vector{Int32}(undef, n)
    _check(ccall((:kindred_model_labels, libkindred), Cint, (Ptr{Cvoid}, Ptr{Int32}, Int64), m, out, n))
    return Int.(out) .+ 1
end

"""Names of the result arrays of a fitted model ("centers", "objective_trace", ...)."""
function arraynames(m::Model)
    count = Ref{Int64}(0)
    _check(ccall((:kindred_model_array_count, libkindred), Cint, (Ptr{Cvoid}, Ref{Int64}), m, count))
    names = String[]
    for k in 0:count[]-1
        name, rows, cols = Ref{Ptr{UInt8}}(C_NULL), Ref{Int64}(0), Ref{Int64}(0)
        _check(ccall((:kindred_model_array_info, libkindred), Cint, (Ptr{Cvoid}, Int64, Ref{Ptr{UInt8}}, Ref{Int64}, Ref{Int64}),
                     m, k, name, rows, cols))
        push!(names, _str(name[]))
    end
    return names
end

"""A result array as a rows x cols Matrix (a copy)."""
function getarray(m::Model, name::AbstractString)
    n = _cname(name)
    rows, cols = Ref{Int64}(0), Ref{Int64}(0)
    _check(ccall((:kindred_model_array_shape, libkindred), Cint, (Ptr{Cvoid}, Cstring, Ref{Int64}, Ref{Int64}), m, n, rows, cols))
    buf = Vector{Float64}(undef, rows[] * cols[])
    _check(ccall((:kindred_model_array, libkindred), Cint, (Ptr{Cvoid}, Cstring, Ptr{Float64}, Int64), m, n, buf, length(buf)))
    return permutedims(reshape(buf, Int(cols[]), Int(rows[])))  # the library's arrays are row-major
end

"""The k x d cluster centres (for algorithms that have them)."""
centers(m::Model) = getarray(m, "centers")

"""Assign new points (rows by default) to the fitted clusters: 1, 2, ... (0 for none)."""
function predict(m::Model, X::AbstractArray; dims::Integer = 1)
    A, n, d, layout, ld = _dense(X, dims; float32 = true)
    out = Vector{Int32}(undef, n)
    status = GC.@preserve A _predict_dense(m, A, n, d, layout, ld, out, n)
    _check(status)
    return Int.(out) .+ 1
end

"""Map new points through the learned transformation: an n x dim matrix."""
function transform(m::Model, X::AbstractArray; dims::Integer = 1)
    A, n, d, layout, ld = _dense(X, dims; float32 = true)
    dim = Ref{Int64}(0)
    _check(ccall((:kindred_model_transform_dim, libkindred), Cint, (Ptr{Cvoid}, Ref{Int64}), m, dim))
    buf = Vector{Float64}(undef, n * dim[])
    status = GC.@preserve A _transform_dense(m, A, n, d, layout, ld, buf, length(buf))
    _check(status)
    return permutedims(reshape(buf, Int(dim[]), Int(n)))
end

"""Save a fitted model to a file."""
save(m::Model, path::AbstractString) =
    _check(ccall((:kindred_model_save, libkindred), Cint, (Ptr{Cvoid}, Cstring), m, _cname(path)))

"""Load a model saved by [`save`](@ref) (or by the CLI's `--model`)."""
function load(path::AbstractString)
    out = Ref{Ptr{Cvoid}}(C_NULL)
    _check(ccall((:kindred_model_load, libkindred), Cint, (Ref{Ptr{Cvoid}}, Cstring), out, _cname(path)))
    return Model(out[])
end

# ---------------------------------------------------------------------------------------------
# Active selection

mutable struct _OracleState
    f::Any
    error::Any
end

# Returned when the oracle threw: not a valid answer, so the library stops at once.
const _ORACLE_STOP = Cint(2)

function _oracle_trampoline(user::Ptr{Cvoid}, i::Int64, j::Int64)::Cint
    state = unsafe_pointer_to_objref(user)::_OracleState
    state.error === nothing || return _ORACLE_STOP
    try
        a = state.f(Int(i) + 1, Int(j) + 1)
        answer = a === true ? 1 : a === false ? -1 : a === nothing ? 0 : Int(a)
        answer in (-1, 0, 1) || throw(ArgumentError("oracle: answer $a is not 1, -1, 0, true, false or nothing"))
        return Cint(answer)
    catch e
        state.error = e
        return _ORACLE_STOP
    end
end

"""
    active_select(X, oracle; budget, k = nothing, strategy = nothing, seed = 0, dims = 1)

Ask `oracle(i, j)` (1-based point indices, i < j) about chosen pairs of the points of `X` and return
the answers as a [`SideInfo`](@ref), ready for `fit(...; side = ...)`. The oracle answers `1` or
`true` (same cluster), `-1` or `false` (different), `0` or `nothing` (don't know). `k = nothing`
when the number of clusters is unknown (Explore only). `strategy`: a name from the range of the
"strategy" entry of the library's active-selection options (`kindred_active_option_info`);
`nothing`: its default. An exception thrown by the oracle stops the
selection and is rethrown here. Experimental in the C API (its signature may change after 0.1).
"""
function active_select(X::AbstractArray, oracle; budget::Integer, k = nothing, strategy = nothing,
                       seed::Integer = 0, dims::Integer = 1)
    A, n, d, layout, ld = _dense(X, dims)
    out = Ref{Ptr{Cvoid}}(C_NULL)
    _check(ccall((:kindred_active_options_new, libkindred), Cint, (Ref{Ptr{Cvoid}},), out))
    options = out[]
    side = SideInfo(n)
    state = _OracleState(oracle, nothing)
    cb = @cfunction(_oracle_trampoline, Cint, (Ptr{Cvoid}, Int64, Int64))
    status = try
        if strategy !== nothing
            _check(ccall((:kindred_active_options_set_string, libkindred), Cint, (Ptr{Cvoid}, Cstring, Cstring),
                         options, "strategy", _cname(strategy)))
        end
        for (name, value) in (("k", k === nothing ? Int64(-1) : Int64(k)), ("budget", Int64(budget)), ("seed", Int64(seed)))
            _check(ccall((:kindred_active_options_set_int, libkindred), Cint, (Ptr{Cvoid}, Cstring, Int64),
                         options, name, value))
        end
        GC.@preserve A state begin
            ccall((:kindred_active_select, libkindred), Cint,
                  (Ptr{Cvoid}, Ptr{Float64}, Int64, Int64, Cint, Int64, Ptr{Cvoid}, Ptr{Cvoid}, Ptr{Cvoid}),
                  options, A, n, d, layout, ld, cb, pointer_from_objref(state), side)
        end
    finally
        ccall((:kindred_active_options_free, libkindred), Cvoid, (Ptr{Cvoid},), options)
    end
    state.error === nothing || throw(state.error)
    _check(status)
    return side
end

# ---------------------------------------------------------------------------------------------
# Metrics

function _codes(labels)
    ids = Dict{Any,Int32}()
    return Int32[get!(ids, x, Int32(length(ids))) for x in labels]
end

"""
    metric(name, truth, predicted)

Compare two labelings (any values, compared as categories) with a metric of [`metrics`](@ref).
"""
function metric(name::AbstractString, truth::AbstractVector, predicted::AbstractVector)
    length(truth) == length(predicted) ||
        throw(KindredError(2, "dimension mismatch", "metric: truth has $(length(truth)) labels and predicted $(length(predicted))"))
    t, p = _codes(truth), _codes(predicted)
    value = Ref{Cdouble}(0.0)
    _check(ccall((:kindred_metric, libkindred), Cint, (Cstring, Ptr{Int32}, Ptr{Int32}, Int64, Ref{Cdouble}),
                 _cname(name), t, p, length(t), value))
    return value[]
end

end # module
