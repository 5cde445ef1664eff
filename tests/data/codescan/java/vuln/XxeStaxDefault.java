    @PostMapping(value = "/orders/import", consumes = "application/xml")
    public int importOrders(InputStream body) throws XMLStreamException {
        XMLInputFactory factory = XMLInputFactory.newInstance();
        XMLStreamReader reader = factory.createXMLStreamReader(body);
        int orders = 0;
        while (reader.hasNext()) {
            if (reader.next() == XMLStreamConstants.START_ELEMENT && "order".equals(reader.getLocalName())) {
                orders++;
            }
        }
        return orders;
    }
