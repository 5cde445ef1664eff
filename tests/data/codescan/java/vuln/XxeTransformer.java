    @PostMapping(value = "/invoices/render", consumes = MediaType.APPLICATION_XML_VALUE, produces = MediaType.TEXT_HTML_VALUE)
    public String render(HttpServletRequest request) throws Exception {
        TransformerFactory factory = TransformerFactory.newInstance();
        Transformer transformer = factory.newTransformer(new StreamSource(new ClassPathResource("invoice.xsl").getInputStream()));
        StringWriter out = new StringWriter();
        transformer.transform(new StreamSource(request.getInputStream()), new StreamResult(out));
        return out.toString();
    }
