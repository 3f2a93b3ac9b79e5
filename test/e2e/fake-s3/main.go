// A fake S3 server on loopback (gofakes3, objects in memory) that test/e2e/gitlab-ci.e2e.test.ts
// uses as the Pulumi backend a team and its pipeline share. It creates the bucket it is given,
// prints its address on the first line of its output, and serves until it is stopped.
package main

import (
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"
)

func main() {
	bucket := flag.String("bucket", "platform-state", "the bucket to create")
	flag.Parse()
	backend := s3mem.New()
	if err := backend.CreateBucket(*bucket); err != nil {
		log.Fatal(err)
	}
	listener, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("http://%s\n", listener.Addr())
	log.Fatal(http.Serve(listener, gofakes3.New(backend).Server()))
}
