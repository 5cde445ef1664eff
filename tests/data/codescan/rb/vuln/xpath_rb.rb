  def find_user
    doc = Nokogiri::XML(File.read('users.xml'))
    node = doc.at_xpath("//user[name='#{params[:name]}']")
    render plain: node&.at_xpath('email')&.text
  end
