# A pairs file naming a point beyond the data's n: exit 1, the message gives file:line:column,
# the index and n.
printf 'x,y\n0,0\n0,1\n5,5\n5,6\n' > points.csv
printf 'i,j,value\n0,1,1\n0,9,-1\n' > pairs.csv
kindred fit pckmeans --data points.csv --k 2 --pairs pairs.csv
