parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False)
doc = etree.fromstring(payload, parser)
