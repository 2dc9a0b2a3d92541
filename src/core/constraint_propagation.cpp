#include "core/constraint_propagation.hpp"

#include <algorithm>
#include <tuple>
#include <unordered_map>

#include "core/side_info.hpp"

namespace kindred {
namespace {

// A signed graph in CSR form: edges with the net value between two nodes.
struct SignedGraph {
    int64_t nodes = 0;
    std::vector<int64_t> ptr, other;
    std::vector<double> value;
};

// Edges (a, b, v) given in both directions, summed per (a, b); a == b dropped.
// edges is consumed: released once the graph is built (at n pairs it is 48
// bytes a point, and the graph is read for the rest of the propagation).
SignedGraph signed_graph(int64_t nodes, std::vector<std::tuple<int64_t, int64_t, double>> &edges) {
    std::sort(edges.begin(), edges.end());
    SignedGraph g;
    g.nodes = nodes;
    g.ptr.assign(static_cast<size_t>(nodes + 1), 0);
    // Sized to the distinct (a, b), an upper bound of what is kept, instead
    // of grown by push_back (up to twice the size, for as long as the graph lives).
    size_t distinct = 0;
    for (size_t e = 0; e < edges.size(); ++e)
        distinct += e == 0 || std::get<0>(edges[e]) != std::get<0>(edges[e - 1]) ||
                    std::get<1>(edges[e]) != std::get<1>(edges[e - 1]);
    g.other.reserve(distinct);
    g.value.reserve(distinct);
    for (size_t e = 0; e < edges.size();) {
        const int64_t a = std::get<0>(edges[e]), b = std::get<1>(edges[e]);
        double v = 0.0;
        for (; e < edges.size() && std::get<0>(edges[e]) == a && std::get<1>(edges[e]) == b; ++e) v += std::get<2>(edges[e]);
        if (a == b || v == 0.0) continue;
        ++g.ptr[a + 1];
        g.other.push_back(b);
        g.value.push_back(v);
    }
    std::vector<std::tuple<int64_t, int64_t, double>>().swap(edges);
    for (int64_t a = 0; a < nodes; ++a) g.ptr[a + 1] += g.ptr[a];
    return g;
}

// Local moving (the first phase of Louvain-style methods, for the
// correlation-clustering objective sum over same-group pairs of v): each
// node in turn joins the group it agrees with most (the sum of its values
// to that group's members), or a group of its own when it agrees with none,
// until no node moves. Returns the group of each node (group ids are node
// ids) and whether anything moved.
bool local_moves(const SignedGraph &g, std::vector<int64_t> &group) {
    const int64_t m = g.nodes;
    group.resize(static_cast<size_t>(m));
    std::vector<int64_t> size(static_cast<size_t>(m), 1), free_ids;
    for (int64_t a = 0; a < m; ++a) group[a] = a;
    std::vector<double> net(static_cast<size_t>(m), 0.0);
    std::vector<int64_t> touched;
    bool any = false;
    for (int pass = 0; pass < 50; ++pass) {
        int64_t moved = 0;
        for (int64_t a = 0; a < m; ++a) {
            const int64_t own = group[a];
            touched.clear();
            for (int64_t e = g.ptr[a]; e < g.ptr[a + 1]; ++e) {
                const int64_t h = group[g.other[e]];
                if (net[h] == 0.0) touched.push_back(h);
                net[h] += g.value[e];
            }
            // Staying is worth net[own] (0 when alone), a group of its own 0,
            // another group net[h]; a node moves only for a strict gain, so
            // the objective grows with every move and the passes end.
            int64_t best = own;
            double best_value = net[own];
            for (int64_t h : touched)
                if (h != own && net[h] > best_value) {
                    best_value = net[h];
                    best = h;
                }
            const bool alone = best == own && net[own] < 0.0 && size[own] > 1;
            for (int64_t h : touched) net[h] = 0.0;
            net[own] = 0.0;
            if (best == own && !alone) continue;
            if (alone) {  // fewer groups than nodes: an id is free
                best = free_ids.back();
                free_ids.pop_back();
            }
            --size[own];
            if (size[own] == 0) free_ids.push_back(own);
            ++size[best];
            group[a] = best;
            ++moved;
        }
        if (moved == 0) break;
        any = true;
    }
    return any;
}

// Robust units (see the header): local moving on the signed graph of the
// points that occur in a pair, then on the graph of the groups found (nets
// summed between groups), level after level, until a level moves nothing.
// A node first goes where its own answers point; whole groups merge only
// when the answers between them agree on balance, so a few wrong must-links
// between two classes are outvoted by the cannot-links between them.
std::vector<int64_t> robust_groups(int64_t n, const std::vector<Pair> &pairs) {
    std::vector<int64_t> owner(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) owner[i] = i;
    std::vector<int64_t> point;  // node -> point
    std::vector<int64_t> local(static_cast<size_t>(n), -1);
    for (const Pair &p : pairs)
        for (int64_t x : {p.i, p.j})
            if (local[x] < 0) {
                local[x] = static_cast<int64_t>(point.size());
                point.push_back(x);
            }
    std::vector<std::tuple<int64_t, int64_t, double>> edges;
    edges.reserve(2 * pairs.size());
    for (const Pair &p : pairs) {
        edges.emplace_back(local[p.i], local[p.j], p.value);
        edges.emplace_back(local[p.j], local[p.i], p.value);
    }
    std::vector<int64_t>().swap(local);  // not read again (8 bytes a point)
    SignedGraph g = signed_graph(static_cast<int64_t>(point.size()), edges);
    std::vector<int64_t> node_of(point.size());  // the current level's node of each original node
    for (size_t a = 0; a < point.size(); ++a) node_of[a] = static_cast<int64_t>(a);
    std::vector<int64_t> group;
    while (local_moves(g, group)) {
        // The groups become the next level's nodes, numbered densely.
        std::vector<int64_t> id(static_cast<size_t>(g.nodes), -1);
        int64_t count = 0;
        for (int64_t a = 0; a < g.nodes; ++a)
            if (id[group[a]] < 0) id[group[a]] = count++;
        std::vector<std::tuple<int64_t, int64_t, double>> up;
        up.reserve(g.other.size());
        for (int64_t a = 0; a < g.nodes; ++a)
            for (int64_t e = g.ptr[a]; e < g.ptr[a + 1]; ++e) up.emplace_back(id[group[a]], id[group[g.other[e]]], g.value[e]);
        for (int64_t &v : node_of) v = id[group[v]];
        g = signed_graph(count, up);
    }
    // Every point of a group to the smallest point of the group.
    std::vector<int64_t> first(static_cast<size_t>(g.nodes), -1);
    for (size_t a = 0; a < point.size(); ++a) {
        int64_t &f = first[node_of[a]];
        if (f < 0 || point[a] < f) f = point[a];
    }
    for (size_t a = 0; a < point.size(); ++a) owner[point[a]] = first[node_of[a]];
    return owner;
}

std::vector<int64_t> transitive_groups(int64_t n, const std::vector<Pair> &pairs) {
    DisjointSets sets(n);
    for (const Pair &p : pairs)
        if (p.value > 0) sets.unite(p.i, p.j);
    std::vector<int64_t> owner(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) owner[i] = sets.find(i);
    return owner;
}

}  // namespace

int64_t PropagatedConstraints::largest_unit() const {
    return unit_size.empty() ? 0 : *std::max_element(unit_size.begin(), unit_size.end());
}

PropagatedConstraints propagate_constraints(int64_t n, const std::vector<Pair> &pairs, Propagation mode) {
    const std::vector<int64_t> owner = mode == Propagation::Robust ? robust_groups(n, pairs) : transitive_groups(n, pairs);
    PropagatedConstraints out;
    out.n = n;
    out.unit.assign(static_cast<size_t>(n), -1);
    std::vector<int64_t> id_of(static_cast<size_t>(n), -1);
    for (int64_t i = 0; i < n; ++i) {
        int64_t &id = id_of[owner[i]];
        if (id < 0) {
            id = out.unit_count();
            out.unit_size.push_back(0);
        }
        out.unit[i] = id;
        ++out.unit_size[id];
    }
    out.unit_size.shrink_to_fit();  // kept by the store for every fit: without push_back's slack
    const int64_t units = out.unit_count();

    // Net evidence between units, from the pairs that cross them.
    std::vector<std::tuple<int64_t, int64_t, double>> cross;
    // Sized exactly (two entries per pair across units) rather than grown by
    // push_back, which left up to twice the 48 bytes an entry.
    size_t crossing = 0;
    for (const Pair &p : pairs) crossing += out.unit[p.i] != out.unit[p.j];
    cross.reserve(2 * crossing);
    for (const Pair &p : pairs) {
        const int64_t u = out.unit[p.i], v = out.unit[p.j];
        if (u == v) {
            out.contradicted_pairs += p.value < 0;
            continue;
        }
        out.contradicted_pairs += p.value > 0;
        cross.emplace_back(u, v, p.value);
        cross.emplace_back(v, u, p.value);
    }
    std::sort(cross.begin(), cross.end());
    out.cl_ptr.assign(static_cast<size_t>(units + 1), 0);
    // The net of each (u, v), in the order of the sort.
    auto each_net = [&cross](auto &&take) {
        for (size_t e = 0; e < cross.size();) {
            const int64_t u = std::get<0>(cross[e]), v = std::get<1>(cross[e]);
            double net = 0.0;
            for (; e < cross.size() && std::get<0>(cross[e]) == u && std::get<1>(cross[e]) == v; ++e)
                net += std::get<2>(cross[e]);
            take(u, v, net);
        }
    };
    // Counted first (the same sums), so that the rows the store keeps for
    // every fit are sized exactly rather than grown by push_back, which
    // left up to twice their 16 bytes an entry.
    size_t kept = 0;
    each_net([&kept](int64_t, int64_t, double net) { kept += net < 0.0; });
    out.cl_unit.reserve(kept);
    out.cl_weight.reserve(kept);
    each_net([&out](int64_t u, int64_t v, double net) {
        if (net < 0.0) {
            ++out.cl_ptr[u + 1];
            out.cl_unit.push_back(v);
            out.cl_weight.push_back(-net);
        }
    });
    for (int64_t u = 0; u < units; ++u) out.cl_ptr[u + 1] += out.cl_ptr[u];
    return out;
}

}  // namespace kindred
