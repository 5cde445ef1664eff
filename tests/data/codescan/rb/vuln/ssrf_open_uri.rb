  def import
    data = URI.open(params[:feed_url]).read
    @items = FeedParser.parse(data)
  end
