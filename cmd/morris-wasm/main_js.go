//go:build js && wasm

package main

import (
	"encoding/json"
	"syscall/js"
)

// main puts morrisEngine.call(method, json) on the global object (the
// worker's): a Promise of the answer as JSON, rejected with the error's
// text. Then it waits for ever: the calls run in the program.
func main() {
	en := newEngine()
	promise := js.Global().Get("Promise")
	call := js.FuncOf(func(_ js.Value, args []js.Value) any {
		if len(args) < 1 {
			return promise.Call("reject", "morrisEngine.call(method, json)")
		}
		method := args[0].String()
		var body []byte
		if len(args) > 1 && args[1].Type() == js.TypeString {
			body = []byte(args[1].String())
		}
		var handler js.Func
		handler = js.FuncOf(func(_ js.Value, pargs []js.Value) any {
			handler.Release()
			resolve, reject := pargs[0], pargs[1]
			// A goroutine of its own: a call made from JavaScript must
			// not block (syscall/js.FuncOf).
			go func() {
				out, err := en.call(method, body)
				if err == nil {
					var data []byte
					if data, err = json.Marshal(out); err == nil {
						resolve.Invoke(string(data))
						return
					}
				}
				reject.Invoke(err.Error())
			}()
			return nil
		})
		return promise.New(handler)
	})
	js.Global().Set("morrisEngine", js.ValueOf(map[string]any{"call": call}))
	select {}
}
