package storage

import (
	"slices"
	"sync"
	"sync/atomic"
)

// The merger keeps the active layer's keyspaces down to a few runs each.
// Every commit adds a run to each keyspace it wrote, and a read looks in a
// keyspace's runs one after another, so runs are merged as they pile up: a
// keyspace's newest runs are merged while each next older one is no larger
// than those before it together (mergePlan), which keeps a keyspace's runs
// growing in size towards the oldest, about log2 of its commits of them,
// and merges each entry about that many times.
//
// Merging is the only work on a commit's entries besides the commit itself,
// so it runs on a goroutine of its own rather than on the committing one: a
// commit hands the merges it makes due to the merger, and a later commit
// puts the merged runs in place of the runs they were made of (publish), as
// only the writer changes the active layer. Readers never wait for it: a
// view lists the runs of its version, merged or not.
type merger struct {
	mu sync.Mutex
	// queue holds the merges not yet started; busy the keyspaces with a
	// merge queued or under way, which get no other until theirs is in
	// place; ready the merged runs waiting for a commit to put them in.
	queue []mergeJob
	busy  map[string]bool
	ready []mergeResult
	wake  chan struct{}
	stop  chan struct{}
	done  chan struct{}
}

// mergeJob is the merge of a contiguous stretch of one keyspace's runs in
// one layer (identified by its size counter, which all its values share).
type mergeJob struct {
	layer  *atomic.Int64
	name   string
	inputs []*memRun // newest first
}

type mergeResult struct {
	mergeJob
	out *memRun
}

// mergeRatio: a keyspace's newer runs are merged into the next older one
// once they hold at least 1/mergeRatio of its entries together.
const mergeRatio = 1

// maxRuns is how many runs a keyspace may have before a commit merges them
// itself rather than waiting for the merger (which a busy machine may not
// schedule for a while), so reads never search an unbounded list.
const maxRuns = 24

func newMerger() *merger {
	m := &merger{busy: map[string]bool{}, wake: make(chan struct{}, 1), stop: make(chan struct{}), done: make(chan struct{})}
	go m.run()
	return m
}

func (m *merger) run() {
	defer close(m.done)
	for {
		m.mu.Lock()
		var job mergeJob
		ok := len(m.queue) > 0
		if ok {
			job = m.queue[0]
			m.queue = m.queue[1:]
		}
		m.mu.Unlock()
		if !ok {
			select {
			case <-m.wake:
				continue
			case <-m.stop:
				return
			}
		}
		out := mergeRuns(job.inputs)
		m.mu.Lock()
		m.ready = append(m.ready, mergeResult{mergeJob: job, out: out})
		m.mu.Unlock()
	}
}

// close stops the merger; merges not put in place are dropped.
func (m *merger) close() {
	close(m.stop)
	<-m.done
}

// take returns the merged runs waiting to be put in place. The caller (a
// committing writer) must put in those of its active layer; for any other
// layer the merge came too late. Their keyspaces may be merged again.
func (m *merger) take() []mergeResult {
	m.mu.Lock()
	defer m.mu.Unlock()
	r := m.ready
	m.ready = nil
	for _, res := range r {
		delete(m.busy, res.name)
	}
	return r
}

// plan queues the merges the active layer l's changed keyspaces are due
// for, and merges at once those with too many runs to wait. It returns l,
// or a new value of it with those merged.
func (m *merger) plan(l *layer, changed []string) *layer {
	var now map[string]*spaceState
	m.mu.Lock()
	queued := false
	for _, name := range changed {
		st := l.spaces.get(name)
		switch {
		case st == nil:
		case len(st.runs) > maxRuns:
			// A merge of this keyspace under way will find its inputs
			// gone, and be dropped.
			if now == nil {
				now = map[string]*spaceState{}
			}
			c := *st
			c.runs = []*memRun{mergeRuns(st.runs)}
			l.size.Add(c.runs[0].bytes() - runsBytes(st.runs))
			now[name] = &c
		case len(st.runs) >= 2 && !m.busy[name]:
			if n := mergePlan(st.runs); n > 0 {
				m.queue = append(m.queue, mergeJob{layer: l.size, name: name, inputs: slices.Clone(st.runs[:n])})
				m.busy[name] = true
				queued = true
			}
		}
	}
	m.mu.Unlock()
	if queued {
		select {
		case m.wake <- struct{}{}:
		default:
		}
	}
	if now == nil {
		return l
	}
	return &layer{size: l.size, spaces: l.spaces.with(now), hi: l.hi}
}

// mergePlan returns how many of a keyspace's newest runs to merge (0:
// none): as many as the rule in the comment on merger allows, if two or
// more.
func mergePlan(runs []*memRun) int {
	acc, n := runs[0].len(), 1
	for _, r := range runs[1:] {
		if r.len() > mergeRatio*acc {
			break
		}
		acc += r.len()
		n++
	}
	if n < 2 {
		return 0
	}
	return n
}

func runsBytes(runs []*memRun) int64 {
	var n int64
	for _, r := range runs {
		n += r.bytes()
	}
	return n
}

func (j mergeJob) inputBytes() int64 { return runsBytes(j.inputs) }

// at returns where the job's inputs are in runs, or -1 if they are not
// there together any more.
func (j mergeJob) at(runs []*memRun) int {
	for i, r := range runs {
		if r == j.inputs[0] {
			if i+len(j.inputs) > len(runs) {
				return -1
			}
			for k, in := range j.inputs {
				if runs[i+k] != in {
					return -1
				}
			}
			return i
		}
	}
	return -1
}

// replace returns runs with the job's inputs replaced by out (runs itself
// is not changed); the inputs must be there (at).
func (r mergeResult) replace(runs []*memRun) []*memRun {
	i := r.at(runs)
	out := make([]*memRun, 0, len(runs)-len(r.inputs)+1)
	out = append(out, runs[:i]...)
	out = append(out, r.out)
	return append(out, runs[i+len(r.inputs):]...)
}
