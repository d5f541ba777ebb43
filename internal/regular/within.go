package regular

import (
	"path/filepath"
	"strings"
)

// Within reports whether path is dir or lies under it, comparing the
// paths as written (clean them, or resolve their links first, where that
// matters): "/a/b" is within "/a", "/ab" is not.
func Within(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}
