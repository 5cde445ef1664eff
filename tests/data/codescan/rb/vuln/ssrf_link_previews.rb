class LinkPreviewsController < ApplicationController
  def create
    target = params.require(:link)
    response = Faraday.get(target)
    render json: { status: response.status, title: response.body[%r{<title>(.*?)</title>}m, 1] }
  end
end
