$(function () {
  const q = new URLSearchParams(location.search).get('q') || '';
  $('#search-summary').html('Results for <strong>' + q + '</strong>');
  $('#search-input').val(q);
});
