// Show the section name from the URL fragment, e.g. page.html#Pricing
const section = decodeURIComponent(window.location.hash.slice(1));
document.write('<h2 class="section-title">' + section + '</h2>');
