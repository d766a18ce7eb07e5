package main

import "fmt"

// count writes n and the noun, plural unless n is 1: "1 value", "2 values".
func count(n int, noun string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, noun)
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
