using Kindred                                         # README example (run as written on a machine with Julia)
X = [0.0 0.1; 0.2 0.0; 5.0 5.1; 5.2 4.9; 9.0 9.1; 9.2 8.8]   # 6 points (rows) in 2-D
links = ([1, 3], [2, 5], [1.0, -1.0])                 # 1~2 together, 3~5 apart (1-based)
println(algorithms())                                 # every algorithm of the installed library
m = fit("rdpmeans", X; k = 3, seed = 1, pairs = links)  # options by name, from the registry
println(labels(m))                                    # 1-based cluster of each point
println(centers(m))                                   # k x d
println(predict(m, [0.1 0.1; 9.1 9.0]))               # new points
save(m, tempname() * ".kdm")                          # Kindred.load(path) reads it back
println(metric("ari", [1, 1, 2, 2, 3, 3], labels(m)))
