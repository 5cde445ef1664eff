class LdapSessionsController < ApplicationController
  def create
    ldap = Net::LDAP.new(host: 'ldap.example.com', port: 636,
                         encryption: { method: :simple_tls, tls_options: OpenSSL::SSL::SSLContext::DEFAULT_PARAMS })
    entry = ldap.search(base: 'ou=people,dc=example,dc=com', filter: "(mail=#{params[:email]})").first
    if entry && params[:password].present? && ldap.bind(method: :simple, username: entry.dn, password: params[:password])
      reset_session
      session[:user_dn] = entry.dn
      redirect_to root_path
    else
      render :new, status: :unauthorized
    end
  end
end
