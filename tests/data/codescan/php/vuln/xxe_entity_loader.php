libxml_disable_entity_loader(false);
$doc = new DOMDocument();
$doc->loadXML($xmlString, LIBXML_DTDLOAD | LIBXML_DTDATTR);
