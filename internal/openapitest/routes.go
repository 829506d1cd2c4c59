package openapitest

import (
	"mime"
	"sort"
	"strconv"
	"strings"

	v3 "github.com/pb33f/libopenapi/datamodel/high/v3"
)

// route is one operation of the document. The package matches requests to
// routes itself, rather than through the validator, because it needs to
// know things the validator's answers hide: which operation a pair
// exercised (for coverage), whether a path exists under another method (so
// a 405 can be judged), and which media types a status declares (the
// validator cannot match a wildcard such as */*).
type route struct {
	method    string   // upper case, as in an http.Request
	template  string   // /api/v1/deals/{deal_id}
	segments  []string // template split on "/"
	responses map[string][]string
}

// String is the operation's name in the form the Go mux and Operations use.
func (r *route) String() string { return r.method + " " + r.template }

func routesOf(doc *v3.Document) []*route {
	var out []*route
	if doc.Paths == nil || doc.Paths.PathItems == nil {
		return nil
	}
	for p := doc.Paths.PathItems.First(); p != nil; p = p.Next() {
		for o := p.Value().GetOperations().First(); o != nil; o = o.Next() {
			r := &route{
				method:    strings.ToUpper(o.Key()),
				template:  p.Key(),
				segments:  strings.Split(p.Key(), "/"),
				responses: map[string][]string{},
			}
			if rs := o.Value().Responses; rs != nil && rs.Codes != nil {
				for c := rs.Codes.First(); c != nil; c = c.Next() {
					var types []string
					if c.Value() != nil && c.Value().Content != nil {
						for m := c.Value().Content.First(); m != nil; m = m.Next() {
							types = append(types, m.Key())
						}
					}
					r.responses[c.Key()] = types
				}
			}
			out = append(out, r)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].String() < out[j].String() })
	return out
}

// find returns the route for method and path, or nil with the methods the
// path does declare (none when the path itself is unknown).
func find(routes []*route, method, path string) (*route, []string) {
	segs := strings.Split(path, "/")
	var methods []string
	for _, r := range routes {
		if !r.matches(segs) {
			continue
		}
		if r.method == method {
			return r, nil
		}
		methods = append(methods, r.method)
	}
	return nil, methods
}

func (r *route) matches(segs []string) bool {
	if len(segs) != len(r.segments) {
		return false
	}
	for i, t := range r.segments {
		if strings.HasPrefix(t, "{") && strings.HasSuffix(t, "}") {
			if segs[i] == "" {
				return false
			}
			continue
		}
		if t != segs[i] {
			return false
		}
	}
	return true
}

// declared reports whether status is declared, and the media types it
// declares (none for a body-less answer such as 304).
func (r *route) declared(status int) ([]string, bool) {
	types, ok := r.responses[strconv.Itoa(status)]
	if !ok {
		types, ok = r.responses[strconv.Itoa(status/100)+"XX"]
	}
	return types, ok
}

// wildcardCovers reports whether one of the declared media types is a
// wildcard (*/* or type/*) that covers the response's Content-Type.
func wildcardCovers(declared []string, contentType string) bool {
	mt, _, err := mime.ParseMediaType(contentType)
	if err != nil {
		return false
	}
	for _, d := range declared {
		if d == "*/*" {
			return true
		}
		if base, ok := strings.CutSuffix(d, "/*"); ok && strings.HasPrefix(mt, base+"/") {
			return true
		}
	}
	return false
}
