package main

import (
	"fmt"
	"os"
	"strconv"

	"github.com/llmtck/llmtck/internal/cassette"
)

func main() {
	c, err := cassette.Load(os.Args[1])
	if err != nil {
		panic(err)
	}
	i, _ := strconv.Atoi(os.Args[2])
	side := os.Args[3]
	in := c.Interactions[i]
	if side == "req" {
		fmt.Println(in.Request.Method, in.Request.URL)
		os.Stdout.Write(in.Request.Body)
	} else {
		fmt.Println(in.Response.Status)
		os.Stdout.Write(in.Response.Body)
	}
}
