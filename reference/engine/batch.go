package engine

import (
	"errors"
	"fmt"
	"slices"
)

// Batch collects the mutations one loop iteration produces and applies them
// in the documented order: hook, LLM, tool, abort; within a phase in the
// order they were added.
type Batch struct {
	items []phased
}

type phased struct {
	phase Phase
	m     Mutation
}

// Add records mutations produced in phase p. It refuses a mutation the
// phase cannot produce (Phase.Allowed), adding none of ms.
func (b *Batch) Add(p Phase, ms ...Mutation) error {
	for _, m := range ms {
		if m == nil {
			return fmt.Errorf("batch: nil mutation in phase %s", p)
		}
		if !p.Allowed(m.Kind()) {
			return fmt.Errorf("batch: the %s phase cannot produce %s", p, m.Kind())
		}
	}
	for _, m := range ms {
		b.items = append(b.items, phased{p, m})
	}
	return nil
}

// Len is the number of mutations waiting.
func (b *Batch) Len() int { return len(b.items) }

// Apply applies every mutation in phase order, commits the experience batch
// and empties b. A rejected mutation does not stop the others (an abort's
// cancellations must still land); the rejections are returned joined.
func (b *Batch) Apply(t *Transcript) error {
	items := b.items
	b.items = nil
	slices.SortStableFunc(items, func(x, y phased) int { return int(x.phase) - int(y.phase) })
	var errs []error
	for _, it := range items {
		if err := t.Apply(it.m); err != nil {
			errs = append(errs, err)
		}
	}
	t.CommitExperiences()
	return errors.Join(errs...)
}
