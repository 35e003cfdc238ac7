package web

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/morrisgame/morris/internal/golden"
)

// The app's icons (static/img/icon-192.png and icon-512.png, named by
// manifest.webmanifest) are the logo, static/img/logo.svg, drawn by this
// file: a renderer of the few shapes the logo uses (rect with rx, circle,
// path of M, H and V; fill and stroke, inherited from g), 8×8 samples a
// pixel. TestIconsUpToDate draws them again and compares the pixels;
//
//	go test ./web -run TestIconsUpToDate -update
//
// writes them after a change to the logo.

// shape is one element of the logo with its paint.
type shape struct {
	kind               string // rect, circle, line
	x, y, w, h, rx, r  float64
	x2, y2             float64
	fill, stroke       color.NRGBA
	hasFill, hasStroke bool
	strokeW            float64
}

type paint struct {
	fill, stroke   string
	strokeW        string
	hasF, hasS, hW bool
}

func parseColor(s string) (color.NRGBA, bool, error) {
	if s == "" || s == "none" {
		return color.NRGBA{}, false, nil
	}
	if len(s) == 4 && s[0] == '#' { // #rgb
		s = "#" + strings.Repeat(s[1:2], 2) + strings.Repeat(s[2:3], 2) + strings.Repeat(s[3:4], 2)
	}
	if len(s) != 7 || s[0] != '#' {
		return color.NRGBA{}, false, fmt.Errorf("colour %q: only #rgb and #rrggbb", s)
	}
	v, err := strconv.ParseUint(s[1:], 16, 32)
	if err != nil {
		return color.NRGBA{}, false, err
	}
	return color.NRGBA{uint8(v >> 16), uint8(v >> 8), uint8(v), 255}, true, nil
}

// logoShapes reads the logo's shapes, refusing what the renderer does not
// draw.
func logoShapes(svg []byte) ([]shape, error) {
	dec := xml.NewDecoder(bytes.NewReader(svg))
	stack := []paint{{fill: "#000000", strokeW: "1"}}
	var out []shape
	num := func(a map[string]string, k string) float64 {
		f, _ := strconv.ParseFloat(a[k], 64)
		return f
	}
	for {
		tok, err := dec.Token()
		if err != nil {
			break
		}
		switch e := tok.(type) {
		case xml.StartElement:
			a := map[string]string{}
			for _, at := range e.Attr {
				a[at.Name.Local] = at.Value
			}
			p := stack[len(stack)-1]
			if v, ok := a["fill"]; ok {
				p.fill = v
			}
			if v, ok := a["stroke"]; ok {
				p.stroke = v
			}
			if v, ok := a["stroke-width"]; ok {
				p.strokeW = v
			}
			stack = append(stack, p)
			fill, hasFill, err := parseColor(p.fill)
			if err != nil {
				return nil, err
			}
			stroke, hasStroke, err := parseColor(p.stroke)
			if err != nil {
				return nil, err
			}
			sw, _ := strconv.ParseFloat(p.strokeW, 64)
			base := shape{fill: fill, hasFill: hasFill, stroke: stroke, hasStroke: hasStroke, strokeW: sw}
			switch e.Name.Local {
			case "svg":
				if a["viewBox"] != "0 0 64 64" {
					return nil, fmt.Errorf("viewBox %q: the renderer draws 0 0 64 64", a["viewBox"])
				}
			case "g":
			case "rect":
				s := base
				s.kind, s.x, s.y, s.w, s.h, s.rx = "rect", num(a, "x"), num(a, "y"), num(a, "width"), num(a, "height"), num(a, "rx")
				out = append(out, s)
			case "circle":
				s := base
				s.kind, s.x, s.y, s.r = "circle", num(a, "cx"), num(a, "cy"), num(a, "r")
				out = append(out, s)
			case "path":
				// Straight lines only: M x y, then H x or V y.
				f := strings.FieldsFunc(a["d"], func(r rune) bool { return r == ' ' || r == ',' })
				var toks []string
				for _, w := range f {
					// "M32 8V27M32" splits at the letters.
					cur := ""
					for _, r := range w {
						if strings.ContainsRune("MHV", r) {
							if cur != "" {
								toks = append(toks, cur)
							}
							toks = append(toks, string(r))
							cur = ""
						} else if strings.ContainsRune("0123456789.-", r) {
							cur += string(r)
						} else {
							return nil, fmt.Errorf("path command %q: the renderer draws M, H and V", string(r))
						}
					}
					if cur != "" {
						toks = append(toks, cur)
					}
				}
				var x, y float64
				for i := 0; i < len(toks); {
					n := func(j int) float64 { v, _ := strconv.ParseFloat(toks[j], 64); return v }
					switch toks[i] {
					case "M":
						x, y = n(i+1), n(i+2)
						i += 3
					case "H", "V":
						s := base
						s.kind, s.x, s.y, s.x2, s.y2 = "line", x, y, x, y
						if toks[i] == "H" {
							s.x2 = n(i + 1)
						} else {
							s.y2 = n(i + 1)
						}
						x, y = s.x2, s.y2
						out = append(out, s)
						i += 2
					default:
						return nil, fmt.Errorf("path %q", a["d"])
					}
				}
			default:
				return nil, fmt.Errorf("element %s: the renderer does not draw it", e.Name.Local)
			}
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		}
	}
	return out, nil
}

// inRoundRect reports whether (u, v) is in the rectangle with corners of
// radius rx.
func inRoundRect(u, v, x, y, w, h, rx float64) bool {
	if u < x || u > x+w || v < y || v > y+h {
		return false
	}
	cx := math.Max(x+rx, math.Min(u, x+w-rx))
	cy := math.Max(y+rx, math.Min(v, y+h-rx))
	return (u-cx)*(u-cx)+(v-cy)*(v-cy) <= rx*rx
}

// covers reports whether a shape's fill or stroke covers (u, v).
func (s shape) covers(u, v float64, stroke bool) bool {
	hw := s.strokeW / 2
	switch s.kind {
	case "rect":
		if !stroke {
			return inRoundRect(u, v, s.x, s.y, s.w, s.h, s.rx)
		}
		if s.rx != 0 {
			return false // not used by the logo
		}
		return inRoundRect(u, v, s.x-hw, s.y-hw, s.w+2*hw, s.h+2*hw, 0) && !inRoundRect(u, v, s.x+hw, s.y+hw, s.w-2*hw, s.h-2*hw, 0)
	case "circle":
		d := math.Hypot(u-s.x, v-s.y)
		if stroke {
			return math.Abs(d-s.r) <= hw
		}
		return d <= s.r
	case "line": // butt ends
		if !stroke {
			return false
		}
		if s.x == s.x2 {
			return math.Abs(u-s.x) <= hw && v >= math.Min(s.y, s.y2) && v <= math.Max(s.y, s.y2)
		}
		return math.Abs(v-s.y) <= hw && u >= math.Min(s.x, s.x2) && u <= math.Max(s.x, s.x2)
	}
	return false
}

// drawLogo draws the logo at size×size pixels.
func drawLogo(shapes []shape, size int) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, size, size))
	const n = 8
	for py := range size {
		for px := range size {
			var r, g, b, a float64
			for sy := range n {
				for sx := range n {
					u := (float64(px) + (float64(sx)+0.5)/n) * 64 / float64(size)
					v := (float64(py) + (float64(sy)+0.5)/n) * 64 / float64(size)
					var c color.NRGBA
					for _, s := range shapes {
						if s.hasFill && s.covers(u, v, false) {
							c = s.fill
						}
						if s.hasStroke && s.covers(u, v, true) {
							c = s.stroke
						}
					}
					fa := float64(c.A) / 255
					r += float64(c.R) * fa
					g += float64(c.G) * fa
					b += float64(c.B) * fa
					a += fa
				}
			}
			if a == 0 {
				continue
			}
			img.SetNRGBA(px, py, color.NRGBA{uint8(math.Round(r / a)), uint8(math.Round(g / a)), uint8(math.Round(b / a)), uint8(math.Round(a * 255 / (n * n)))})
		}
	}
	return img
}

func TestIconsUpToDate(t *testing.T) {
	svg, err := os.ReadFile("static/img/logo.svg")
	if err != nil {
		t.Fatal(err)
	}
	shapes, err := logoShapes(svg)
	if err != nil {
		t.Fatalf("logo.svg: %v", err)
	}
	if len(shapes) < 5 {
		t.Fatalf("logo.svg: %d shapes read", len(shapes))
	}
	for _, size := range []int{192, 512} {
		path := fmt.Sprintf("static/img/icon-%d.png", size)
		want := drawLogo(shapes, size)
		if golden.Updating() {
			var buf bytes.Buffer
			if err := png.Encode(&buf, want); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		f, err := os.Open(path)
		if err != nil {
			t.Fatalf("%v: draw the icons (go test ./web -run TestIconsUpToDate -update)", err)
		}
		got, err := png.Decode(f)
		f.Close()
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if got.Bounds() != want.Bounds() {
			t.Fatalf("%s is %v, want %v", path, got.Bounds(), want.Bounds())
		}
		for y := range size {
			for x := range size {
				if color.NRGBAModel.Convert(got.At(x, y)) != want.NRGBAAt(x, y) {
					t.Fatalf("%s differs from the logo drawn again at (%d, %d): draw them again", path, x, y)
				}
			}
		}
	}
}
