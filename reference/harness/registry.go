package harness

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"sync"
	"time"
)

// Info is a registered harness's metadata (the Harness of
// docs/reference-model.md, seed 004). In JSON, registeredAt is a Unix
// timestamp in milliseconds, a number as the seed's type says (a JavaScript
// Date's unit), and left out when zero.
type Info struct {
	ID              string    `json:"id"`
	Name            string    `json:"name"`
	Description     string    `json:"description,omitempty"`
	ModulePath      string    `json:"modulePath,omitempty"`
	SupportedModels []string  `json:"supportedModels,omitempty"`
	RegisteredAt    time.Time `json:"-"`
}

// infoJSON is Info as the seed writes it.
type infoJSON struct {
	ID              string   `json:"id"`
	Name            string   `json:"name"`
	Description     string   `json:"description,omitempty"`
	ModulePath      string   `json:"modulePath,omitempty"`
	SupportedModels []string `json:"supportedModels,omitempty"`
	RegisteredAt    *int64   `json:"registeredAt,omitempty"`
}

// MarshalJSON writes registeredAt as Unix milliseconds.
func (i Info) MarshalJSON() ([]byte, error) {
	j := infoJSON{i.ID, i.Name, i.Description, i.ModulePath, i.SupportedModels, nil}
	if !i.RegisteredAt.IsZero() {
		ms := i.RegisteredAt.UnixMilli()
		j.RegisteredAt = &ms
	}
	return json.Marshal(j)
}

// UnmarshalJSON reads registeredAt as Unix milliseconds.
func (i *Info) UnmarshalJSON(data []byte) error {
	var j infoJSON
	if err := json.Unmarshal(data, &j); err != nil {
		return err
	}
	*i = Info{ID: j.ID, Name: j.Name, Description: j.Description, ModulePath: j.ModulePath, SupportedModels: j.SupportedModels}
	if j.RegisteredAt != nil {
		i.RegisteredAt = time.UnixMilli(*j.RegisteredAt).UTC()
	}
	return nil
}

// Registry holds harnesses by id (the LoadedHarness of
// docs/reference-model.md, seed 004: metadata and the harness itself). It is
// safe for concurrent use; the zero value is ready.
type Registry struct {
	mu sync.RWMutex
	by map[string]registered
}

type registered struct {
	info Info
	h    *Harness
}

// Register adds h under info.ID; SupportedModels and RegisteredAt are
// filled in from h and the clock when empty. An id is registered once.
func (r *Registry) Register(info Info, h *Harness) error {
	if info.ID == "" || info.Name == "" || h == nil {
		return fmt.Errorf("harness registry: a harness needs an id, a name and a module")
	}
	if info.SupportedModels == nil {
		info.SupportedModels = h.SupportedModels()
	}
	if info.RegisteredAt.IsZero() {
		info.RegisteredAt = time.Now().UTC()
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.by == nil {
		r.by = map[string]registered{}
	}
	if _, dup := r.by[info.ID]; dup {
		return fmt.Errorf("harness registry: %q is registered already", info.ID)
	}
	r.by[info.ID] = registered{info, h}
	return nil
}

// Get returns the harness registered under id and its metadata.
func (r *Registry) Get(id string) (*Harness, Info, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	e, ok := r.by[id]
	e.info.SupportedModels = slices.Clone(e.info.SupportedModels)
	return e.h, e.info, ok
}

// List returns every registered harness's metadata, by id.
func (r *Registry) List() []Info {
	r.mu.RLock()
	defer r.mu.RUnlock()
	out := make([]Info, 0, len(r.by))
	for _, e := range r.by {
		e.info.SupportedModels = slices.Clone(e.info.SupportedModels)
		out = append(out, e.info)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}
