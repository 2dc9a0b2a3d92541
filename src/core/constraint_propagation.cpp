#include "core/constraint_propagation.hpp"

#include <algorithm>
#include <unordered_map>

#include "core/side_info.hpp"

namespace kindred {
namespace {

// Rows of net values: entry e of row a, for e in ptr[a] .. ptr[a + 1], is
// the sum of the values given for (a, other), rows sorted by other.
struct NetEntry {
    int64_t other;
    double value;
};
struct NetRows {
    int64_t nodes = 0;
    std::vector<int64_t> ptr;
    std::vector<NetEntry> entry;
};

// The entries (a, b, v) that each(emit) emits (twice: counted, then
// placed), summed per (a, b); keep(a, b, net) says which sums stay. The sums
// are those of sorting the triples (a, b, v) and adding up each run of equal
// (a, b) in ascending v, as this did before, so the results are bitwise the
// same; but the rows come from a counting sort, each sorted in place, at 16
// bytes an entry instead of a list of triples (24 bytes an entry) and the
// rows beside it. With n pairs this list was the peak of building the store.
// Written into r, whose memory is reused: the levels of robust_groups build
// each graph into the arrays of the one before last instead of new ones
// (each new array of 16 bytes an entry was written page by page, and its
// compaction copied: at n = 1e6 with 1e7 pairs most of building the store).
template <class Each, class Keep>
void net_rows(int64_t nodes, Each each, Keep keep, NetRows &r) {
    r.nodes = nodes;
    r.ptr.assign(static_cast<size_t>(nodes + 1), 0);
    size_t count = 0;
    each([&](int64_t a, int64_t, double) {
        ++r.ptr[static_cast<size_t>(a + 1)];
        ++count;
    });
    for (int64_t a = 0; a < nodes; ++a) r.ptr[a + 1] += r.ptr[a];
    r.entry.resize(count);
    // ptr[a] is row a's cursor while placing; afterwards it holds row a's end.
    each([&](int64_t a, int64_t b, double v) { r.entry[static_cast<size_t>(r.ptr[a]++)] = {b, v}; });
    for (int64_t a = nodes; a > 0; --a) r.ptr[a] = r.ptr[a - 1];
    r.ptr[0] = 0;
    // Summed and compacted in place: a row's kept sums never pass its start.
    int64_t out = 0, begin = 0;
    for (int64_t a = 0; a < nodes; ++a) {
        const int64_t end = r.ptr[a + 1];
        r.ptr[a] = out;
        std::sort(r.entry.begin() + begin, r.entry.begin() + end, [](const NetEntry &x, const NetEntry &y) {
            return x.other != y.other ? x.other < y.other : x.value < y.value;
        });
        for (int64_t e = begin; e < end;) {
            const int64_t b = r.entry[e].other;
            double net = 0.0;
            for (; e < end && r.entry[e].other == b; ++e) net += r.entry[e].value;
            if (keep(a, b, net)) r.entry[static_cast<size_t>(out++)] = {b, net};
        }
        begin = end;
    }
    r.ptr[static_cast<size_t>(nodes)] = out;
    r.entry.resize(static_cast<size_t>(out));
}

// A signed graph: the net value between two nodes, both directions, none
// zero, no loops.
using SignedGraph = NetRows;

template <class Each>
void signed_graph(int64_t nodes, Each each, SignedGraph &g) {
    net_rows(nodes, each, [](int64_t a, int64_t b, double v) { return a != b && v != 0.0; }, g);
}

// Local moving (the first phase of Louvain-style methods, for the
// correlation-clustering objective sum over same-group pairs of v): each
// node in turn joins the group it agrees with most (the sum of its values
// to that group's members), or a group of its own when it agrees with none,
// until no node moves. Returns the group of each node (group ids are node
// ids) and whether anything moved.
//
// A node's choice depends only on its neighbours' groups (a negative net to
// its own group implies a neighbour in it), so a node whose neighbours have
// not moved since it was last visited would stay: a pass visits only the
// stale nodes (in: those whose choice may differ from their last one; each
// move makes the node and its neighbours stale; out: those still stale when
// the passes stop, none unless they reached their limit). The same moves as
// visiting every node in every pass, at the cost of the nodes near moves.
bool local_moves(const SignedGraph &g, std::vector<int64_t> &group, std::vector<char> &stale) {
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
            if (!stale[a]) continue;
            stale[a] = 0;
            const int64_t own = group[a];
            touched.clear();
            for (int64_t e = g.ptr[a]; e < g.ptr[a + 1]; ++e) {
                const int64_t h = group[g.entry[e].other];
                if (net[h] == 0.0) touched.push_back(h);
                net[h] += g.entry[e].value;
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
            stale[a] = 1;
            for (int64_t e = g.ptr[a]; e < g.ptr[a + 1]; ++e) stale[g.entry[e].other] = 1;
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
    SignedGraph g, next;
    signed_graph(
        static_cast<int64_t>(point.size()),
        [&](auto &&emit) {
            for (const Pair &p : pairs) {
                emit(local[p.i], local[p.j], p.value);
                emit(local[p.j], local[p.i], p.value);
            }
        },
        g);
    std::vector<int64_t>().swap(local);  // not read again (8 bytes a point)
    std::vector<int64_t> node_of(point.size());  // the current level's node of each original node
    for (size_t a = 0; a < point.size(); ++a) node_of[a] = static_cast<int64_t>(a);
    std::vector<int64_t> group;
    std::vector<char> stale(static_cast<size_t>(g.nodes), 1), next_stale;
    std::vector<int64_t> id;
    while (local_moves(g, group, stale)) {
        // The groups become the next level's nodes, numbered densely.
        id.assign(static_cast<size_t>(g.nodes), -1);
        int64_t count = 0;
        for (int64_t a = 0; a < g.nodes; ++a)
            if (id[group[a]] < 0) id[group[a]] = count++;
        for (int64_t &a : group) a = id[a];  // each node's node at the next level
        for (int64_t &v : node_of) v = group[v];
        // A node of the next level made of one node of this level that
        // stays where it is (not stale) stays there too: its nets to the
        // next level's nodes are the ones it had to their groups (the same
        // values; with weights other than +1 and -1 summed in another order,
        // so equal up to rounding). So the next level first visits the groups
        // of several nodes only (and what their moves make stale), not every
        // node. Measured at n = 1e6 with 1e7 pairs (bench/side_store_bench):
        // the store built in 16 s instead of 28, with the units unchanged.
        // (next_stale: 1 for a node met once, 2 for one met again or stale.)
        std::vector<int64_t>().swap(id);  // not read again: 8 bytes a node less at the peak below
        next_stale.assign(static_cast<size_t>(count), 0);
        for (int64_t a = 0; a < g.nodes; ++a) {
            char &s = next_stale[group[a]];
            s = stale[a] || s > 0 ? 2 : 1;
        }
        for (char &s : next_stale) s = s == 2;
        stale.swap(next_stale);
        // Edges inside a group are left out: the graph drops loops anyway.
        signed_graph(
            count,
            [&](auto &&emit) {
                for (int64_t a = 0; a < g.nodes; ++a) {
                    const int64_t u = group[a];
                    for (int64_t e = g.ptr[a]; e < g.ptr[a + 1]; ++e) {
                        const int64_t v = group[g.entry[e].other];
                        if (u != v) emit(u, v, g.entry[e].value);
                    }
                }
            },
            next);
        std::swap(g, next);
    }
    next = SignedGraph();  // the graphs' arrays are the peak of this function: one released at once
    // Every point of a group to the smallest point of the group.
    std::vector<int64_t> first(static_cast<size_t>(g.nodes), -1);
    for (size_t a = 0; a < point.size(); ++a) {
        int64_t &f = first[node_of[a]];
        if (f < 0 || point[a] < f) f = point[a];
    }
    for (size_t a = 0; a < point.size(); ++a) owner[point[a]] = first[node_of[a]];
    return owner;
}

}  // namespace

int64_t PropagatedConstraints::largest_unit() const {
    int64_t largest = 0;
    for (int64_t u = 0; u < unit_count(); ++u) largest = std::max(largest, unit_size[u]);
    return largest;
}

PropagatedConstraints propagate_constraints(int64_t n, const std::vector<Pair> &pairs, Propagation mode) {
    std::vector<int64_t> owner = mode == Propagation::Robust ? robust_groups(n, pairs) : must_link_components(n, pairs);
    PropagatedConstraints out;
    out.n = n;
    out.unit.assign(static_cast<size_t>(n), n, 0);
    {
        // Ids in order of smallest member, then the sizes, sized exactly
        // (kept by the store for every fit).
        std::vector<int64_t> id_of(static_cast<size_t>(n), -1);
        int64_t count = 0;
        for (int64_t i = 0; i < n; ++i) {
            int64_t &id = id_of[owner[i]];
            if (id < 0) id = count++;
            out.unit.set(i, id);
        }
        std::vector<int64_t>().swap(id_of);
        std::vector<int64_t>().swap(owner);  // with id_of, 16 bytes a point not needed below
        out.unit_size.assign(static_cast<size_t>(count), n, 0);
        for (int64_t i = 0; i < n; ++i) out.unit_size.set(out.unit[i], out.unit_size[out.unit[i]] + 1);
    }
    const int64_t units = out.unit_count();

    // Net evidence between units, from the pairs that cross them; the
    // cannot-link rows keep the negative nets, sized exactly.
    for (const Pair &p : pairs)
        if (out.unit[p.i] == out.unit[p.j]) out.contradicted_pairs += p.value < 0;
        else out.contradicted_pairs += p.value > 0;
    NetRows cross;
    net_rows(
        units,
        [&](auto &&emit) {
            for (const Pair &p : pairs) {
                const int64_t u = out.unit[p.i], v = out.unit[p.j];
                if (u == v) continue;
                emit(u, v, p.value);
                emit(v, u, p.value);
            }
        },
        [](int64_t, int64_t, double net) { return net < 0.0; }, cross);
    out.cl_ptr = std::move(cross.ptr);
    out.cl_unit.resize(cross.entry.size());
    out.cl_weight.resize(cross.entry.size());
    for (size_t e = 0; e < cross.entry.size(); ++e) {
        out.cl_unit[e] = cross.entry[e].other;
        out.cl_weight[e] = -cross.entry[e].value;
    }
    return out;
}

}  // namespace kindred
