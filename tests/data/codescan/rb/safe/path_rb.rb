  def show
    name = File.basename(params[:filename].to_s)
    path = Rails.root.join('storage', 'exports', name)
    raise ActionController::RoutingError, 'Not Found' unless File.file?(path)
    send_file path
  end
