// Command scale measures how `dealctl serve` scales with cores: it seeds
// a world of many deals and keys, starts the server pinned with taskset
// to 1, 2, 4 and 8 cores (the load generator on other cores), and runs,
// for a few seconds each, list polls answered 304, one request's 200, a
// whole list's 200, posted messages, and a mixed load (90 % list polls
// with the ETags each key remembers, 8 % one request, 2 % posts). It
// prints calls per second, the posts' p50 and p99, the server's RSS, and
// the ratios side by side; with -quiet, the server's RSS while no call
// comes after the mixed load (does the memory fall back when the deals go
// quiet?); with -big-rows it then measures one large deal's first list
// read after a one-row write.
//
// Build both programs beforehand (the machine it runs on needs no
// network), then run from the load generator's cores:
//
//	go build -o dealctl ./cmd/dealctl
//	go build -o scale ./internal/tools/scale
//	./scale -dealctl ./dealctl -cores 1,2,4,8 -server-cpus 0-7 -loadgen-cpus 8-15 -seconds 8
//
// A small run here: ./scale -dealctl ./dealctl -cores 1 -seconds 2 -deals 4 -rows 60.
// -cells names the loads to run (list304,request,list200,post,mixed-whole,
// mixed), to profile one; the post cell waits until the server (and a
// PostgreSQL on the same machine) is idle again, so that the posts'
// notification deliveries count; -quiet watches the RSS with no calls
// after the mixed load. On a host whose speed drifts (a shared VM),
// -rounds 8 runs the list 304 and mixed cells in alternating rounds, so
// that their ratio, the figure compared, weighs both alike:
//
//	./scale -dealctl ./dealctl -cores 1 -server-cpus 0 -loadgen-cpus 1 -big-rows 0 -cells list304,mixed -seconds 16 -rounds 8
//
// docs/server.md ("Scaling with cores") has the figures and what they mean.
package main
