class DownloadsController < ApplicationController
  def show
    send_file Rails.root.join('storage', 'exports', params[:filename])
  end
end
