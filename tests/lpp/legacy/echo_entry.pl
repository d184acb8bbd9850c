#!/usr/bin/perl
# A legacy Loebner Prize entry, as entries were written for JComm 2009-2016: it polls its
# communications directory, reads the judge's key directories in stamp order (deleting each), and
# answers each line by creating one directory per key with an unpadded counter as its stamp.
# Usage: echo_entry.pl DIR [IDLE_SECONDS]   (exits after IDLE_SECONDS without a key, default 30)
use strict;
use warnings;
use Time::HiRes qw(sleep time);

my ($dir, $idle) = @ARGV;
die "usage: $0 DIR [IDLE_SECONDS]\n" unless defined $dir && -d $dir;
$idle = 30 unless defined $idle;

my %name = (' ' => 'space', ',' => 'comma', '.' => 'period', '?' => 'question', '!' => 'exclam',
            ':' => 'colon', "'" => 'quoteright', '-' => 'minus');
my %char = reverse %name;
my $counter = 0;
my $line = '';
my $last = time;

sub send_key { my ($key) = @_; $counter++; mkdir "$dir/$counter.$key.other" or die "mkdir: $!"; }

sub say_line {
    my ($text) = @_;
    for my $c (split //, $text) {
        send_key(exists $name{$c} ? $name{$c} : $c) if $c =~ /[A-Za-z0-9]/ || exists $name{$c};
        sleep 0.002;
    }
    send_key('Return');
}

while (time - $last < $idle) {
    opendir(my $dh, $dir) or die "opendir: $!";
    my @keys = sort { $a->[0] <=> $b->[0] }
               map { /^(\d+)\.(.+)\.judge$/ ? [$1, $2, $_] : () } readdir($dh);
    closedir($dh);
    for my $k (@keys) {
        rmdir "$dir/$k->[2]";
        $last = time;
        my $key = $k->[1];
        if ($key eq 'Return') { say_line("Perl heard: $line"); $line = ''; }
        elsif ($key eq 'BackSpace') { chop $line; }
        elsif (length($key) == 1) { $line .= $key; }
        elsif (exists $char{$key}) { $line .= $char{$key}; }
    }
    sleep 0.01;
}
