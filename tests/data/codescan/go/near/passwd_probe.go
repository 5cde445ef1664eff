var traversalProbes = []string{"../../etc/passwd", "..%2f..%2fetc%2fpasswd", "/etc/shadow"}

func isProbe(p string) bool {
	for _, s := range traversalProbes {
		if strings.Contains(p, s) {
			return true
		}
	}
	return false
}
