    @PostMapping(value = "/import", consumes = "application/xml")
    public int importXml(HttpServletRequest request) throws Exception {
        DocumentBuilderFactory dbf = DocumentBuilderFactory.newInstance();
        DocumentBuilder builder = dbf.newDocumentBuilder();
        Document doc = builder.parse(request.getInputStream());
        return doc.getElementsByTagName("item").getLength();
    }
