#!/bin/sh
# Run by guest/init in a chroot of the new root, after debootstrap's
# second stage: install the kernel from its packages, and make the system
# boot to multi-user on a serial console, report, and power off.
set -e
# guest/init runs with the busybox PATH.
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
dpkg -i /root/jtcfi/debs/linux-image-*.deb
echo jtcfi > /etc/hostname
echo 'LABEL=jtcfi-root / ext4 defaults 0 1' > /etc/fstab
# The root password is empty: a throw-away guest on QEMU's user network.
passwd -d root
mkdir -p /etc/systemd/network
cat > /etc/systemd/network/80-dhcp.network <<'NET'
[Match]
Name=en* eth*

[Network]
DHCP=yes
NET
systemctl enable systemd-networkd.service
install -m 755 /root/jtcfi/jtcfi-report /root/jtcfi/jtcfi-audit /usr/local/sbin/
install -m 644 /root/jtcfi/jtcfi-report.service /etc/systemd/system/
systemctl enable jtcfi-report.service
