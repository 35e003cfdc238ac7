package mill
import ("testing";"time")
func TestQuickPerft(t *testing.T) {
	r := MustRules("nine-mens-morris")
	s := time.Now()
	t.Log(Perft(r.Start(), 6), time.Since(s))
}
