class PreviewsController < ApplicationController
  def show
    uri = URI.parse(params[:url])
    response = Net::HTTP.get_response(uri)
    render json: { status: response.code, length: response.body.to_s.bytesize }
  end
end
