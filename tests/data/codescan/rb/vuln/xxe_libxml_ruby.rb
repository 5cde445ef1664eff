LibXML::XML.default_substitute_entities = true
doc = LibXML::XML::Document.string(xml_string)
