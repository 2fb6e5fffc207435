package suite

import (
	"slices"
	"strings"
)

// checkResets checks every scenario's reset key: services of this suite
// that have a reset argv, each named once.
func (s *Suite) checkResets(e *suiteErrors) {
	for i, sv := range s.Services {
		if sv.Reset != nil && len(sv.Reset) == 0 {
			e.add(at("service", i), "reset", "empty: give the argv that takes the service back to its seeded state, or leave the key out")
		}
	}
	for i, sc := range s.Scenarios {
		p := at("scenario", i)
		seen := map[string]bool{}
		for _, name := range sc.Reset {
			j := slices.IndexFunc(s.Services, func(sv Service) bool { return sv.Name == name })
			switch {
			case seen[name]:
				e.add(p, "reset", "%q is listed twice", name)
			case j < 0:
				e.add(p, "reset", "%q is not a [[service]] of this suite (services: %s)", name, serviceNames(s.Services))
			case len(s.Services[j].Reset) == 0:
				e.add(p, "reset", "service %q has no reset argv: give it one, e.g. reset = [\"psql\", …, \"-f\", \"reset.sql\"]", name)
			}
			seen[name] = true
		}
		if sc.Reset != nil && len(sc.Reset) == 0 {
			e.add(p, "reset", "empty: name the services to reset, or leave the key out")
		}
	}
}

// serviceNames lists the services' names for an error, "none" for none.
func serviceNames(services []Service) string {
	if len(services) == 0 {
		return "none"
	}
	names := make([]string, len(services))
	for i, sv := range services {
		names[i] = sv.Name
	}
	return strings.Join(names, ", ")
}
