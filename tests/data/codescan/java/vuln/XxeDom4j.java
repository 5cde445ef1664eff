    @PostMapping(value = "/orders/import", consumes = MediaType.APPLICATION_XML_VALUE)
    public int importOrders(HttpServletRequest request) throws Exception {
        SAXReader reader = new SAXReader();
        Document doc = reader.read(request.getInputStream());
        return doc.getRootElement().elements("order").size();
    }
