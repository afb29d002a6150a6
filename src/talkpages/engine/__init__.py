"""Outputs -> disk: the one pipeline of a build, the media cache kept between builds, the
writer that puts a site in place, and the workers that render on every core."""
