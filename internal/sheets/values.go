package sheets

import (
	"fmt"
	"strings"

	"github.com/dealctl/dealctl/internal/api"
)

// normalizeValue folds an enumeration cell: "Human Resources", "human-
// resources" and "HUMAN_RESOURCES" all become "human_resources".
func normalizeValue(s string) string {
	f := strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return r == ' ' || r == '-' || r == '_' || r == '/' || r == '&' || r == '.'
	})
	return strings.Join(f, "_")
}

// Words people write in these columns, beyond the API's own values.
var (
	kindWords = map[string]api.RequestKind{
		"request": api.KindRequest, "item": api.KindRequest, "question": api.KindRequest, "req": api.KindRequest,
		"section": api.KindSection, "heading": api.KindSection, "header": api.KindSection, "group": api.KindSection,
	}
	priorityWords = map[string]api.Priority{
		"low": api.PriorityLow, "l": api.PriorityLow, "p3": api.PriorityLow, "minor": api.PriorityLow, "3": api.PriorityLow,
		"lowest": api.PriorityLow, "very_low": api.PriorityLow,
		"medium": api.PriorityMedium, "med": api.PriorityMedium, "m": api.PriorityMedium, "normal": api.PriorityMedium,
		"p2": api.PriorityMedium, "2": api.PriorityMedium, "moderate": api.PriorityMedium,
		"high": api.PriorityHigh, "h": api.PriorityHigh, "p1": api.PriorityHigh, "urgent": api.PriorityHigh,
		"critical": api.PriorityHigh, "1": api.PriorityHigh, "p0": api.PriorityHigh, "highest": api.PriorityHigh,
		"very_high": api.PriorityHigh, "top": api.PriorityHigh, "key": api.PriorityHigh,
		"hoch": api.PriorityHigh, "mittel": api.PriorityMedium, "niedrig": api.PriorityLow, "gering": api.PriorityLow,
	}
	categoryWords = map[string]api.RequestCategory{
		"business": api.CategoryBusiness, "commercial": api.CategoryBusiness, "operations": api.CategoryBusiness,
		"operational": api.CategoryBusiness, "general": api.CategoryBusiness,
		"legal": api.CategoryLegal, "corporate": api.CategoryLegal,
		"tax": api.CategoryTax, "taxation": api.CategoryTax,
		"accounting": api.CategoryAccounting, "finance": api.CategoryAccounting, "financial": api.CategoryAccounting,
		"technology": api.CategoryTechnology, "tech": api.CategoryTechnology, "it": api.CategoryTechnology,
		"information_technology": api.CategoryTechnology,
		"human_resources":        api.CategoryHumanResources, "hr": api.CategoryHumanResources, "people": api.CategoryHumanResources,
		"employment": api.CategoryHumanResources, "employees": api.CategoryHumanResources, "personnel": api.CategoryHumanResources,
		"ip": api.CategoryLegal, "intellectual_property": api.CategoryLegal, "litigation": api.CategoryLegal,
		"contracts": api.CategoryLegal, "financial_due_diligence": api.CategoryAccounting, "fdd": api.CategoryAccounting,
		"legal_due_diligence": api.CategoryLegal, "ldd": api.CategoryLegal, "tax_due_diligence": api.CategoryTax,
		"commercial_due_diligence": api.CategoryBusiness, "cdd": api.CategoryBusiness,
		"it_due_diligence": api.CategoryTechnology, "cyber": api.CategoryTechnology, "cybersecurity": api.CategoryTechnology,
		"recht": api.CategoryLegal, "steuern": api.CategoryTax, "finanzen": api.CategoryAccounting, "personal": api.CategoryHumanResources,
		"kommerziell": api.CategoryBusiness,
	}
	statusWords = map[string]api.RequestStatus{
		"open": api.StatusOpen, "new": api.StatusOpen, "not_started": api.StatusOpen, "outstanding": api.StatusOpen,
		"pending": api.StatusOpen, "to_do": api.StatusOpen, "todo": api.StatusOpen,
		"partial": api.StatusPartial, "in_progress": api.StatusPartial, "partially_complete": api.StatusPartial,
		"partially_provided": api.StatusPartial, "partly": api.StatusPartial, "wip": api.StatusPartial,
		"complete": api.StatusComplete, "completed": api.StatusComplete, "done": api.StatusComplete,
		"closed": api.StatusComplete, "provided": api.StatusComplete, "answered": api.StatusComplete,
		"received": api.StatusComplete, "uploaded": api.StatusComplete, "fully_provided": api.StatusComplete,
		"requested": api.StatusOpen, "not_yet_provided": api.StatusOpen, "not_provided": api.StatusOpen,
		"awaiting": api.StatusOpen, "open_item": api.StatusOpen,
		"partially_received": api.StatusPartial, "partly_provided": api.StatusPartial, "ongoing": api.StatusPartial,
		"started": api.StatusPartial, "in_process": api.StatusPartial, "partially_uploaded": api.StatusPartial,
		"offen": api.StatusOpen, "ausstehend": api.StatusOpen, "in_bearbeitung": api.StatusPartial, "teilweise": api.StatusPartial,
		"erledigt": api.StatusComplete, "abgeschlossen": api.StatusComplete, "geliefert": api.StatusComplete, "erhalten": api.StatusComplete,
	}
)

// parseEnum reads a cell holding one of an enumeration's values, or a
// word for one (words): the value, or a problem that names the choices.
// A cell of several known words that agree ("1 - High", "Open / pending")
// reads as the value they agree on; one unknown word ("Not complete")
// makes the whole cell unknown, never a guess from its other words.
func parseEnum[T ~string](cell, what string, words map[string]T, all []T) (T, string) {
	key := normalizeValue(cell)
	if v, ok := words[key]; ok {
		return v, ""
	}
	var agreed T
	parts := strings.Split(key, "_")
	for _, w := range parts {
		v, ok := words[w]
		if !ok || (agreed != "" && v != agreed) {
			agreed = ""
			break
		}
		agreed = v
	}
	if agreed != "" && len(parts) > 1 {
		return agreed, ""
	}
	var zero T
	return zero, fmt.Sprintf("unknown %s %q: use %s", what, cell, choices(all))
}

// choices lists an enumeration's API values for an error message.
func choices[T ~string](vals []T) string {
	s := make([]string, len(vals))
	for i, v := range vals {
		s[i] = string(v)
	}
	return strings.Join(s, ", ")
}
