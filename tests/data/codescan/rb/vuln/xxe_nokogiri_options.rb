  def upload
    xml = params.require(:feed).read
    options = Nokogiri::XML::ParseOptions::DEFAULT_XML | Nokogiri::XML::ParseOptions::NOENT
    doc = Nokogiri::XML::Document.parse(xml, nil, nil, options)
    @items = doc.xpath('//item').map { |i| i.at('title')&.text }
  end
