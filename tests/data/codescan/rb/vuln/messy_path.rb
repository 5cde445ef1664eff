  def download
    # ...
    send_file "#{Rails.root}/public/uploads/#{params[:file]}"
  end
