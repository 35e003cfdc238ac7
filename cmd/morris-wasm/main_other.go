//go:build !(js && wasm)

package main

import (
	"fmt"
	"os"
)

func main() {
	fmt.Fprintln(os.Stderr, "morris-wasm is the engine of the web client: build it with GOOS=js GOARCH=wasm (docs/offline.md)")
	os.Exit(2)
}
