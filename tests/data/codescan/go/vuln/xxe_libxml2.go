import (
	"github.com/lestrrat-go/libxml2/parser"
)

func parseUpload(r *http.Request) (int, error) {
	body, _ := io.ReadAll(r.Body)
	p := parser.New(parser.XMLParseNoEnt | parser.XMLParseDTDLoad)
	doc, err := p.Parse(body)
	if err != nil {
		return 0, err
	}
	defer doc.Free()
	return len(doc.String()), nil
}
