package card

import (
	"slices"
	"testing"
)

func TestSDKProjectionFixedPoint(t *testing.T) {
	doc := []byte(`{"a":"x","b":[1,{"c":false}],"d":{"e":0}}`)
	out, removed, err := SDKProjection(doc)
	if err != nil || removed != nil || string(out) != string(doc) {
		t.Errorf("got %s %v %v", out, removed, err)
	}
	out, removed, _ = SDKProjection([]byte(`{"a":"","b":[[],{}],"c":{"d":null},"e":1}`))
	if string(out) != `{"e":1}` || !slices.Equal(removed, []Omission{{"a", true}, {"b", true}, {"c", true}}) {
		t.Errorf("got %s %v", out, removed)
	}
}
