    public List<Order> parseOrders(InputStream xml) throws Exception {
        SAXParserFactory factory = SAXParserFactory.newInstance();
        SAXParser parser = factory.newSAXParser();
        OrderHandler handler = new OrderHandler();
        parser.parse(xml, handler);
        return handler.getOrders();
    }
