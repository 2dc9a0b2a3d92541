# A flag that is neither a flag of fit nor an option of the algorithm is a usage error (exit 2)
# listing the algorithm's options.
cp "$KINDRED_DATA/iris.csv" .
kindred fit kmeans --data iris.csv --bogus 1
