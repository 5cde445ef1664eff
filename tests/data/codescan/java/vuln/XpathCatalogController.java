@RestController
@RequestMapping("/api/catalog")
public class CatalogController {

    private final Document catalog;
    private final XPath xpath = XPathFactory.newInstance().newXPath();

    public CatalogController(Document catalog) {
        this.catalog = catalog;
    }

    @GetMapping("/price")
    public String price(@RequestParam String sku) throws XPathExpressionException {
        String expression = "/catalog/product[@sku='" + sku + "']/price";
        return xpath.evaluate(expression, catalog);
    }
}
