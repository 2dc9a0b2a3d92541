# Tests of Kindred.jl; run with `julia --project=bindings/julia -e 'using Pkg; Pkg.test()'` on a machine
# with Julia and libkindred (KINDRED_LIB / KINDRED_PREFIX / pkg-config). Data: the repository's data/iris.csv.
using Test
using Kindred

function load_iris()
    path = joinpath(get(ENV, "KINDRED_TEST_DATA", joinpath(@__DIR__, "..", "..", "..", "data")), "iris.csv")
    lines = filter(!isempty, readlines(path))
    header = split(lines[1], ',')
    labelcol = findfirst(==("label"), header)
    rows = [split(l, ',') for l in lines[2:end]]
    featurecols = [k for k in 1:length(header) if k != labelcol]
    X = [parse(Float64, r[c]) for r in rows, c in featurecols]        # n x d, column-major
    names = [r[labelcol] for r in rows]
    classes = Dict(c => k for (k, c) in enumerate(unique(names)))
    y = [classes[c] for c in names]                                    # 1, 2, 3
    return X, y
end

const X, y = load_iris()
const n, d = size(X)

@testset "Kindred.jl" begin
    @testset "registry" begin
        algs = algorithms()
        @test "kmeans" in algs
        for a in algs
            @test !isempty(algorithm_summary(a))
            opts = options(a)
            @test any(o -> o.name == "seed", opts)
            m = Model(a)
            for o in opts
                @test isempty(getoption(m, o.name)) == isempty(o.default)
            end
        end
        @test "nmi" in metrics()
        @test_throws KindredError Model("no-such-algorithm")
    end

    @testset "fit, predict, layouts" begin
        m = fit("kmeans", X; k = 3, seed = 4)
        lab = labels(m)
        @test length(lab) == n && all(1 .<= lab .<= 3)
        @test metric("ari", y, lab) > 0.6
        @test predict(m, X) == lab
        @test size(centers(m)) == (3, d)
        # points as columns (d x n) are read in place too, and give the same clustering
        @test labels(fit("kmeans", permutedims(X); dims = 2, k = 3, seed = 4)) == lab
        # a view into a larger matrix (leading dimension > n) is passed without a copy
        big = zeros(n + 5, d + 1)
        big[3:n+2, 2:d+1] .= X
        @test labels(fit("kmeans", view(big, 3:n+2, 2:d+1); k = 3, seed = 4)) == lab
        # other element types are converted
        @test labels(fit("kmeans", round.(Int, 10 .* X); k = 3, seed = 4)) isa Vector{Int}
        @test fitsummary(m).clusters == 3
        @test "centers" in arraynames(m)
    end

    @testset "Float32 points: read in place, the fit of the same values as Float64" begin
        X32 = Float32.(X)
        X64 = Float64.(X32)
        for a in algorithms()
            uses = algorithm_uses(a)
            kw = Dict{Symbol,Any}()
            :pairs in uses && (kw[:pairs] = sample_pairs(y; count = 60, seed = 1))
            :triplets in uses && (kw[:triplets] = sample_triplets(y; count = 200, seed = 1))
            :partial_labels in uses && (kw[:partial_labels] = [i % 5 == 1 ? y[i] : 0 for i in 1:n])
            opts = any(o -> o.name == "k", options(a)) ? (k = 3,) : NamedTuple()
            m64 = fit(a, X64; seed = 2, kw..., opts...)
            m32 = fit(a, X32; seed = 2, kw..., opts...)
            # column-major points: the same labels (GEMM may round the last bits differently)
            @test labels(m32) == labels(m64)
            # points as columns are row-major to the library: bitwise the Float64 fit
            r64 = fit(a, permutedims(X64); dims = 2, seed = 2, kw..., opts...)
            r32 = fit(a, permutedims(X32); dims = 2, seed = 2, kw..., opts...)
            @test labels(r32) == labels(r64)
            for name in arraynames(r64)
                @test getarray(r32, name) == getarray(r64, name)
            end
        end
        m = fit("kmeans", X32; k = 3, seed = 4)
        @test predict(m, X32) == labels(m)
        @test predict(m, X64) == labels(m)
        big = zeros(Float32, n + 5, d + 1)
        big[3:n+2, 2:d+1] .= X32
        @test predict(m, view(big, 3:n+2, 2:d+1)) == labels(m)      # a strided view, in place
        @test predict(m, permutedims(X32)'; dims = 1) == labels(m)  # an adjoint: one Float32 copy
        t = fit("tcs-gm", X32; seed = 2, partial_labels = [i % 5 == 1 ? y[i] : 0 for i in 1:n])
        @test transform(t, X32) == transform(t, X64)
        Xn = copy(X32)
        Xn[6, 3] = NaN32
        @test_throws KindredError fit("kmeans", Xn; k = 3)
        @test_throws KindredError predict(m, Xn)
    end

    @testset "every algorithm" begin
        for a in algorithms()
            uses = algorithm_uses(a)
            kw = Dict{Symbol,Any}()
            :pairs in uses && (kw[:pairs] = sample_pairs(y; count = 60, seed = 1))
            :triplets in uses && (kw[:triplets] = sample_triplets(y; count = 200, seed = 1))
            :partial_labels in uses && (kw[:partial_labels] = [i % 5 == 1 ? y[i] : 0 for i in 1:n])
            opts = any(o -> o.name == "k", options(a)) ? (k = 3,) : NamedTuple()
            m = fit(a, X; seed = 2, kw..., opts...)
            @test length(labels(m)) == n
            path = tempname() * ".kdm"
            save(m, path)
            back = Kindred.load(path)
            @test labels(back) == labels(m)
            for name in arraynames(m)
                @test getarray(back, name) == getarray(m, name)
                @test all(isfinite, getarray(m, name))
            end
            rm(path; force = true)
        end
    end

    @testset "errors carry the library's message" begin
        err = try
            Model("kmeans"; kk = 3)
        catch e
            e
        end
        @test err isa KindredError && occursin("kk", err.message)
        @test_throws KindredError Model("kmeans"; k = 0)
        Xn = copy(X)
        Xn[6, 3] = NaN
        @test_throws KindredError fit("kmeans", Xn; k = 3)
        err = try
            fit("kmeans", X; k = 3, pairs = ([1], [n + 1], [1.0]))
        catch e
            e
        end
        @test err isa KindredError && err.name != "" && occursin(string(n), err.message)
        @test_throws KindredError fit("kmeans", X; k = 3, pairs = ([1.5], [2], [1.0]))
        @test_throws KindredError fit("kmeans", X; k = 3, partial_labels = y[1:10])
        @test_throws KindredError fit("kmeans", X[:, 1]; k = 3)
        @test_throws KindredError predict(Model("kmeans"), X)
        m = fit("kmeans", X; k = 3)
        @test_throws KindredError predict(m, X[:, 1:2])
        @test_throws KindredError Kindred.load("/nonexistent/model.kdm")
        @test_throws KindredError metric("accuracy", y, y)
    end

    @testset "progress, cancel, exceptions in callbacks" begin
        seen = Int[]
        fit("kmeans", X; k = 3, n_init = 1, progress = (it, obj, msg) -> (push!(seen, it); false))
        @test !isempty(seen) && seen[1] == 1
        @test_throws KindredError fit("kmeans", X; k = 3, progress = (it, obj, msg) -> it >= 2)
        @test_throws ErrorException fit("kmeans", X; k = 3, progress = (it, obj, msg) -> error("from the callback"))
        @test length(labels(fit("kmeans", X; k = 3))) == n   # still usable
    end

    @testset "side information and metrics" begin
        s = SideInfo(6; pairs = ([1, 2, 2, 5], [2, 1, 3, 6], [1.0, 0.5, 1.0, -2.0]))
        @test counts(s) == (n = 6, pairs = 3, triplets = 0, labelled = 0)
        @test side_pairs(s) == ([1, 2, 5], [2, 3, 6], [1.5, 1.0, -2.0])
        @test components(s) == [1, 1, 1, 2, 3, 4]
        add_pairs!(s, ([1], [3], [-1.0]))
        @test_throws KindredError check_consistent(s)
        @test metric("nmi", [1, 1, 2, 2], ["a", "a", "b", "b"]) ≈ 1.0
        @test metric("rand", [1, 1, 2, 2, 3, 3], ones(Int, 6)) ≈ 3 / 15
        p1 = sample_pairs(y; count = 30, seed = 3)
        @test p1 == sample_pairs(y; count = 30, seed = 3)
        @test all((y[p1[1]] .== y[p1[2]]) .== (p1[3] .> 0))
    end
    @testset "active selection" begin
        asked = Tuple{Int,Int}[]
        s = active_select(X, (i, j) -> (push!(asked, (i, j)); y[i] == y[j]); budget = 30, k = 3, seed = 1)
        @test 0 < length(asked) <= 30
        @test all(i < j for (i, j) in asked)
        i, j, v = side_pairs(s)
        @test all((y[i] .== y[j]) .== (v .> 0))
        @test length(labels(fit("kmeans", X; k = 3, side = s))) == n
        @test_throws KindredError active_select(X, (i, j) -> 1; budget = 5, strategy = "psychic")
        @test_throws ErrorException active_select(X, (i, j) -> error("from the oracle"); budget = 5, k = 3)
        @test_throws ArgumentError active_select(X, (i, j) -> 7; budget = 5, k = 3)
    end
end
