# An unknown algorithm is a usage error (exit 2) listing the known ones.
cp "$KINDRED_DATA/iris.csv" .
kindred fit nosuch --data iris.csv
