// Command rush-driver solves Rush Hour boards with fogleman/rush for
// experiments/peers.py: it reads lines of Fogleman's database format
// (`MOVES BOARD CLUSTER`, or a bare 36-character board) on standard input and
// prints one line `BOARD MOVES` per board, MOVES being the optimal number of
// moves its solver finds (-1 when it calls the board unsolvable), so that one
// process solves a whole list.
package main

import (
	"bufio"
	"fmt"
	"log"
	"os"
	"strings"

	"github.com/fogleman/rush"
)

func main() {
	in := bufio.NewScanner(os.Stdin)
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	for in.Scan() {
		fields := strings.Fields(in.Text())
		if len(fields) == 0 || strings.HasPrefix(fields[0], "#") {
			continue
		}
		desc := fields[0]
		if len(fields) >= 2 {
			desc = fields[1]
		}
		board, err := rush.NewBoardFromString(desc)
		if err != nil {
			log.Fatalf("%s: %v", desc, err)
		}
		solution := board.Solve()
		moves := solution.NumMoves
		if !solution.Solvable {
			moves = -1
		}
		fmt.Fprintf(out, "%s %d\n", desc, moves)
	}
	if err := in.Err(); err != nil {
		log.Fatal(err)
	}
}
