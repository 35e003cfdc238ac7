package retro

import "slices"

// Components returns the sectors needed to solve roots (the roots and every
// sector they depend on, directly or not) grouped into components: sets of
// sectors that depend on each other in a cycle. The components come in
// solving order: each depends only on itself and on components before it.
// Within a component the sectors are in increasing order.
func Components(g Game, roots []int) [][]int {
	// Tarjan's algorithm emits strongly connected components in reverse
	// topological order of the dependency graph, dependencies first, which
	// is the order we want.
	var (
		index   = map[int]int{}
		low     = map[int]int{}
		onStack = map[int]bool{}
		stack   []int
		out     [][]int
		next    int
	)
	var visit func(s int)
	visit = func(s int) {
		index[s], low[s] = next, next
		next++
		stack = append(stack, s)
		onStack[s] = true
		for _, d := range g.Deps(s) {
			if _, seen := index[d]; !seen {
				visit(d)
				low[s] = min(low[s], low[d])
			} else if onStack[d] {
				low[s] = min(low[s], index[d])
			}
		}
		if low[s] == index[s] {
			var comp []int
			for {
				t := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				onStack[t] = false
				comp = append(comp, t)
				if t == s {
					break
				}
			}
			slices.Sort(comp)
			out = append(out, comp)
		}
	}
	for _, s := range roots {
		if _, seen := index[s]; !seen {
			visit(s)
		}
	}
	return out
}
