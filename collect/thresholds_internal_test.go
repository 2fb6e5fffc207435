package collect

import (
	"testing"

	"github.com/fairbench/fairbench/parse/verdict"
)

// TestThresholdsMatchTheAudit: the collector takes a turn again, or calls a
// load tool saturated, at the very bounds the audit reports, so that what
// the audit would name is what the collector acted on.
func TestThresholdsMatchTheAudit(t *testing.T) {
	th := verdict.DefaultThresholds
	if ceilingNearLimit != th.ClientSaturation {
		t.Errorf("ceilingNearLimit %v, the audit's ClientSaturation %v", ceilingNearLimit, th.ClientSaturation)
	}
	if foreignRetake != th.ForeignLoad {
		t.Errorf("foreignRetake %v, the audit's ForeignLoad %v", foreignRetake, th.ForeignLoad)
	}
}
