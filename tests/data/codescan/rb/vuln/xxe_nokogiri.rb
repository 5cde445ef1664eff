  def import
    doc = Nokogiri::XML(request.body.read) { |config| config.noent.dtdload }
    @count = doc.xpath('//item').size
  end
