  def ping
    host = params[:host].to_s
    return head :bad_request unless host.match?(/\A[a-z0-9.-]+\z/i)
    output, _status = Open3.capture2('ping', '-c', '1', host)
    render plain: output
  end
