package loops
import ("testing";"os";"fmt")
func TestSmoke(t *testing.T){
 l,err:=LoadFile("/tmp/lp/insurance-appeal.loop.md"); if err!=nil{t.Fatal(err)}
 fmt.Printf("%+v\n", *l)
 _ = os.Stdout
}
