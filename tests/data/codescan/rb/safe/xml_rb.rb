doc = Nokogiri::XML(request.body.read) { |config| config.strict.nonet }
count = doc.xpath('//item').size
