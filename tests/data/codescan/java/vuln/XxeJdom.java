    public List<String> titles(InputStream xml) throws Exception {
        SAXBuilder builder = new SAXBuilder();
        org.jdom2.Document doc = builder.build(xml);
        return doc.getRootElement().getChildren("item").stream().map(e -> e.getChildText("title")).toList();
    }
