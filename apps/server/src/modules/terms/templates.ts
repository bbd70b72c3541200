/**
 * The default terms of service and privacy policy, in Japanese and English: templates for the
 * operator's own legal text, marked as such at the top. System administrators replace them in the
 * portal (System > Terms and policy); they are inserted as version 1.0 when a database has none.
 */

const TEMPLATE_NOTE_JA =
  '【ご注意：ひな形です】この文書は、ロボットポータルに同梱された利用規約のひな形です。運営者は、自社のサービス内容・契約条件・適用法令に合わせ、法務担当者または弁護士の確認を受けたうえで、システム管理の「規約・ポリシー」画面から本文を差し替えてください。〔　〕で囲んだ箇所は運営者が記入する項目です。';
const TEMPLATE_NOTE_EN =
  '[Note: this is a template] This document is the template of terms of service shipped with the Robot Portal. The operator adapts it to its own service, contract terms and the applicable law, has it reviewed by its legal counsel, and replaces this text on the "Terms and policy" screen of the system administration. Items in [brackets] are for the operator to fill in.';

const PP_NOTE_JA =
  '【ご注意：ひな形です】この文書は、ロボットポータルに同梱されたプライバシーポリシーのひな形です。運営者は、実際に取り扱う情報・利用目的・委託先・保存期間に合わせ、個人情報保護法その他の適用法令に照らして法務担当者または弁護士の確認を受けたうえで、システム管理の「規約・ポリシー」画面から本文を差し替えてください。〔　〕で囲んだ箇所は運営者が記入する項目です。';
const PP_NOTE_EN =
  '[Note: this is a template] This document is the template of a privacy policy shipped with the Robot Portal. The operator adapts it to the information it actually handles, its purposes, its processors and its retention periods, has it reviewed by its legal counsel against the data protection law that applies, and replaces this text on the "Terms and policy" screen of the system administration. Items in [brackets] are for the operator to fill in.';

const TOS_JA = `${TEMPLATE_NOTE_JA}

利用規約

本規約は、〔運営者名〕（以下「当社」）が提供するロボット遠隔運用サービス「ロボットポータル」（以下「本サービス」）の利用条件を定めるものです。本サービスを利用する方（以下「利用者」）は、本規約に同意したうえで本サービスを利用するものとします。

第1条（本サービスの内容）
1. 本サービスは、利用者の組織が管理する建物・フロアに配置されたロボットを、インターネットを通じて監視・遠隔操作・運行管理するためのサービスです。
2. 本サービスには、ロボットの状態表示、地図・ウェイポイント・経路の編集、フロー・作業計画の実行、カメラ映像の表示と録画、通知、監査ログの閲覧などの機能が含まれます。提供する機能は、利用者の組織との契約内容により異なります。
3. 当社は、利用者に事前に通知することにより、本サービスの内容を変更し、または機能を追加・廃止することがあります。

第2条（アカウントと認証情報）
1. 本サービスのアカウントは、利用者の組織の管理者または当社が発行します。アカウントは個人ごとに発行され、複数人で共有してはなりません。
2. 利用者は、ログインID・パスワード・認証コードその他の認証情報を自己の責任で管理し、第三者に開示・貸与してはなりません。
3. 利用者は、認証情報の漏えいまたは不正利用のおそれを知ったときは、直ちにパスワードを変更し、組織の管理者および当社に連絡するものとします。
4. 認証情報を用いて行われた操作は、当該アカウントの利用者が行ったものとみなします。

第3条（ロボットの安全な運用）
1. 本サービスで操作するロボットは、人が働き、また通行する場所で稼働します。利用者は、ロボットを操作・走行させる前に、周囲の人や物の安全、通路の状況、ロボットの状態（バッテリー、異常表示など）を確認しなければなりません。
2. 利用者は、ロボットの製造者の取扱説明書、設置先の建物の規則、および利用者の組織が定める安全手順に従うものとします。
3. 利用者は、人との接触、転倒、物の損壊その他の危険を感じたときは、直ちにロボットを停止し、必要に応じて現地の担当者に連絡するものとします。
4. 通信の遅延・切断、映像の遅れ、地図と実際の環境の差異が生じることがあります。利用者は、これらを前提に余裕をもった速度と経路で操作するものとします。
5. 他の利用者が操作中のロボットを、権限なく操作・停止してはなりません。

第4条（禁止事項）
利用者は、本サービスの利用にあたり、次の行為をしてはなりません。
(1) 法令、公序良俗または本規約に違反する行為
(2) 人の身体・財産を危険にさらす方法でロボットを操作する行為
(3) カメラ映像その他の情報を用いて、他人のプライバシー・肖像権を侵害し、または目的外に撮影・記録・公開する行為
(4) 権限のない建物・ロボット・データへのアクセスまたはその試み
(5) 本サービスまたはロボットのソフトウェアの解析・改変、過度な負荷をかける行為、不正なプログラムの送信
(6) 認証情報の共有・譲渡、他人へのなりすまし
(7) その他、当社が不適切と合理的に判断する行為

第5条（カメラ映像・録画と個人情報）
1. ロボットのカメラは、稼働場所にいる人を撮影することがあります。利用者の組織は、設置先において、撮影していることの掲示その他法令上必要な措置をとるものとします。
2. 本サービスで表示・録画・保存される映像、画像、操作履歴その他の情報の取扱いは、別に定めるプライバシーポリシーによります。
3. 利用者は、業務上必要な範囲でのみ映像・画像を閲覧・保存・共有するものとします。

第6条（データの保存）
1. 当社は、本サービスの提供のため、利用者の組織のデータ（建物・フロア・地図・ロボット設定・録画・操作履歴・監査ログなど）を保存します。保存期間はプライバシーポリシーおよび利用者の組織との契約に定めるとおりとします。
2. 契約が終了したときは、当社は、契約に定める期間の経過後、利用者の組織のデータを削除します。

第7条（サービスの提供時間・保守・停止）
1. 本サービスは原則として24時間提供しますが、当社は、保守・点検・更新のため、事前に通知して本サービスの全部または一部を停止することがあります。緊急の場合は、事後の通知とすることがあります。
2. 天災、停電、通信回線やクラウド事業者の障害、ロボット側の故障その他当社の支配を超える事由により、本サービスが停止・遅延することがあります。
3. 当社は、本サービスが中断なく、または誤りなく提供されることを保証しません。

第8条（料金）
本サービスの料金および支払方法は、利用者の組織と当社との契約に定めるところによります。

第9条（知的財産権）
本サービスに関するソフトウェア、画面、文書その他の知的財産権は、当社または正当な権利者に帰属します。利用者の組織が登録した地図・データの権利は、利用者の組織に帰属します。

第10条（責任の制限）
1. 当社は、当社の故意または重大な過失による場合を除き、本サービスの利用または利用不能により利用者に生じた損害について、〔直近12か月間に利用者の組織が当社に支払った料金の額〕を上限として責任を負います。
2. ロボットの操作により生じた事故・損害については、当該操作を行った利用者およびその組織が、関係法令および契約に従って責任を負うものとします。ただし、本サービスの不具合が原因である場合はこの限りではありません。
3. 消費者契約法その他の法令により前各項の適用が制限される場合は、その法令の定めに従います。

第11条（利用の停止・アカウントの削除）
当社または利用者の組織の管理者は、利用者が本規約に違反したとき、または安全の確保のため必要があるときは、事前の通知なく、アカウントの利用を停止し、または削除することがあります。

第12条（規約の変更）
1. 当社は、必要に応じて本規約を変更することがあります。重要な変更を行う場合は、新しい版を公開し、利用者に改めて同意を求めます。利用者は、同意するまで本サービスの一部を利用できないことがあります。
2. 誤字の訂正など、利用者の権利義務に影響しない変更は、同意を求めずに行うことがあります。

第13条（準拠法・管轄）
本規約は〔日本法〕に準拠し、本サービスに関して紛争が生じた場合は、〔東京地方裁判所〕を第一審の専属的合意管轄裁判所とします。

第14条（お問い合わせ）
本規約に関するお問い合わせは、〔運営者の連絡先（部署名・メールアドレス・電話番号）〕までお願いします。

〔制定日：YYYY年MM月DD日〕`;

const TOS_EN = `${TEMPLATE_NOTE_EN}

Terms of Service

These terms set out the conditions for using "Robot Portal", the remote robot operation service provided by [operator name] ("we", "us"; the "Service"). Whoever uses the Service (a "User") agrees to these terms by using it.

Article 1 (The Service)
1. The Service lets Users monitor, remotely operate and manage robots placed in the buildings and floors their organization manages, over the internet.
2. It includes showing robot status, editing maps, waypoints and routes, running flows and work plans, showing and recording camera images, notifications and the audit log. Which features are available depends on the User's organization's contract.
3. We may change the Service, or add or withdraw features, after notifying Users in advance.

Article 2 (Accounts and credentials)
1. Accounts are issued by the User's organization's administrator or by us. Each account belongs to one person and must not be shared.
2. Users keep their login ID, password, verification codes and other credentials secret and do not disclose or lend them to anyone.
3. A User who learns that their credentials may have leaked or been misused changes their password at once and informs their organization's administrator and us.
4. Whatever is done with an account's credentials is deemed done by that account's User.

Article 3 (Operating robots safely)
1. The robots operated through the Service work where people work and pass. Before moving or driving a robot, the User checks that the people and things around it are safe, the way is clear and the robot is fit to move (battery, error indications).
2. Users follow the robot manufacturer's instructions, the rules of the building where the robot works and the safety procedures of their organization.
3. A User who senses a risk of contact with a person, a fall, damage to property or any other danger stops the robot at once and, where needed, calls the people on site.
4. The connection may lag or drop, images may be delayed and the map may differ from the actual surroundings. Users operate with speeds and routes that leave a margin for this.
5. Users do not operate or stop a robot that another User is operating unless they are authorized to take it over.

Article 4 (Prohibited conduct)
Users must not:
(1) break the law, public order or these terms;
(2) operate a robot in a way that endangers people or property;
(3) use camera images or other information to infringe anyone's privacy or portrait rights, or film, record or publish beyond the purpose of their work;
(4) access, or try to access, buildings, robots or data they are not authorized for;
(5) reverse engineer or alter the Service or the robots' software, overload the Service, or send malicious code;
(6) share or transfer credentials, or impersonate anyone;
(7) do anything else we reasonably judge inappropriate.

Article 5 (Camera images, recordings and personal data)
1. Robot cameras may capture people where the robots work. The User's organization puts up notices of filming and takes any other step the law requires at the sites.
2. Images, recordings, operation history and other information shown, recorded or stored by the Service are handled as set out in the separate Privacy Policy.
3. Users view, store and share images only as far as their work requires.

Article 6 (Data retention)
1. To provide the Service we store the data of the User's organization (buildings, floors, maps, robot settings, recordings, operation history, the audit log and so on) for the periods set out in the Privacy Policy and the organization's contract.
2. When the contract ends we delete the organization's data after the period the contract sets.

Article 7 (Availability, maintenance and interruptions)
1. The Service runs around the clock in principle. We may suspend all or part of it for maintenance, inspection or updates after notifying Users in advance, or, in an emergency, afterwards.
2. The Service may stop or slow down because of natural disasters, power failures, failures of network or cloud providers, robot faults or other causes beyond our control.
3. We do not guarantee that the Service is uninterrupted or free of errors.

Article 8 (Fees)
Fees and payment are as set out in the contract between the User's organization and us.

Article 9 (Intellectual property)
The software, screens, documents and other intellectual property of the Service belong to us or their rightful owners. Maps and data registered by the User's organization belong to that organization.

Article 10 (Limitation of liability)
1. Except in case of our wilful misconduct or gross negligence, our liability for damage arising from the use of, or inability to use, the Service is limited to [the fees the User's organization paid us in the preceding 12 months].
2. The User who operated a robot, and their organization, are responsible under the law and the contract for accidents and damage caused by that operation, unless a defect of the Service caused them.
3. Where consumer protection or other mandatory law restricts the above, that law prevails.

Article 11 (Suspension and deletion of accounts)
We or the User's organization's administrator may suspend or delete an account without prior notice when the User breaks these terms or when safety requires it.

Article 12 (Changes to these terms)
1. We may change these terms when needed. For a material change we publish a new version and ask Users to agree to it again; until they do, parts of the Service may be unavailable to them.
2. Changes that do not affect Users' rights and obligations, such as corrections of typing errors, may be made without asking for agreement.

Article 13 (Governing law and jurisdiction)
These terms are governed by [the laws of Japan]. [The Tokyo District Court] has exclusive jurisdiction in the first instance over disputes about the Service.

Article 14 (Contact)
Questions about these terms: [the operator's contact: department, email address, telephone number].

[Established: YYYY-MM-DD]`;

const PP_JA = `${PP_NOTE_JA}

プライバシーポリシー

〔運営者名〕（以下「当社」）は、ロボット遠隔運用サービス「ロボットポータル」（以下「本サービス」）における個人情報その他の利用者情報を、以下のとおり取り扱います。

1. 取得する情報
(1) アカウント情報：氏名、ログインID（メールアドレス）、電話番号、所属組織・建物、権限、表示言語
(2) 認証・アクセス情報：パスワード（復元できない形式で保存します）、認証コードの送信履歴、ログイン日時、接続元IPアドレス、端末・ブラウザの情報
(3) 操作履歴：ロボットの操作・停止・走行指示、設定の変更、規約への同意など、監査ログに記録される操作の日時・内容・対象
(4) ロボットが取得する情報：カメラ映像・写真・録画、サーモグラフィ画像、音声（機能を利用する場合）、位置・地図・センサー情報。これらには稼働場所にいる人の姿や声が含まれることがあります。
(5) お問い合わせ・通知の内容：メール・SMS・チャット通知の宛先と送信履歴

2. 利用目的
(1) 本サービスの提供、本人確認、ログイン時の二段階認証とログインのお知らせ
(2) ロボットの安全な運用、事故・異常の原因調査
(3) 不正アクセスの防止、セキュリティの確保、監査ログによる操作の記録
(4) 障害対応、お問い合わせへの回答、保守・点検・重要なお知らせの連絡
(5) サービスの改善（個人を特定しない統計情報として）
(6) 法令に基づく対応

3. カメラ映像・録画の取扱い
(1) 映像・録画は、ロボットの操作と監視、稼働記録の確認、事故・異常の調査の目的でのみ利用します。
(2) 映像・録画を閲覧できるのは、利用者の組織で権限を与えられた方と、保守のため必要な範囲の当社担当者に限ります。
(3) 撮影が行われる場所では、利用者の組織が撮影中であることを掲示します。
(4) 顔認識など、特定の個人を識別するための処理は〔行いません／行う場合の内容〕。

4. 保存期間
(1) アカウント情報：アカウントの削除後〔90日〕
(2) ログイン履歴・監査ログ：〔1年〕
(3) カメラ映像・録画：〔30日〕、ただし事故調査等のため利用者の組織が保存を指定したものを除きます
(4) メール・SMSの送信履歴：〔90日〕
保存期間の経過後、または契約の終了後〔90日〕以内に、復元できない方法で削除します。

5. 第三者提供
当社は、次の場合を除き、本人の同意なく個人情報を第三者に提供しません。
(1) 法令に基づく場合
(2) 人の生命・身体・財産の保護のために必要で、本人の同意を得ることが困難な場合
(3) その他個人情報保護法が認める場合

6. 委託
当社は、利用目的の達成に必要な範囲で、クラウド基盤、メール・SMS配信、映像配信等の事業者に取扱いを委託します（〔委託先・所在国〕）。委託先には適切な監督を行います。外国にある事業者に委託する場合は、法令に従って必要な情報を提供します。

7. 安全管理措置
通信の暗号化、パスワードのハッシュ化、権限による閲覧範囲の制限、IPアドレスによるアクセス制限、二段階認証、監査ログの記録、従業者の教育などの措置を講じます。

8. 開示・訂正・利用停止等の請求
本人は、当社が保有する自己の個人情報の開示、訂正、追加、削除、利用停止、第三者提供の停止を請求できます。請求の方法は〔窓口・手続〕のとおりです。表示言語・氏名・メールアドレスなどは、ポータルの「アカウント」画面から本人が変更できます。

9. Cookie等
本サービスは、ログイン状態の維持と表示言語の記憶のため、ブラウザのローカルストレージを利用します。広告目的の追跡は行いません。

10. 改定
当社は、必要に応じて本ポリシーを改定します。重要な変更を行う場合は、新しい版を公開し、利用者に改めて同意を求めます。

11. お問い合わせ窓口
〔運営者名・住所・代表者名〕
〔個人情報に関するお問い合わせ窓口：部署名・メールアドレス・電話番号〕

〔制定日：YYYY年MM月DD日〕`;

const PP_EN = `${PP_NOTE_EN}

Privacy Policy

[Operator name] ("we", "us") handles personal data and other information about the users of "Robot Portal", its remote robot operation service (the "Service"), as follows.

1. What we collect
(1) Account data: name, login ID (email address), phone number, organization and building, role, display language.
(2) Sign-in and access data: password (stored only in a form that cannot be reversed), verification codes sent, sign-in times, source IP address, device and browser information.
(3) Operation history: time, content and target of what the audit log records, such as operating, stopping and sending robots, changes of settings and agreements to these documents.
(4) Data captured by robots: camera images, photos and recordings, thermal images, sound (where that feature is used), positions, maps and sensor data. These may include the appearance and voices of people where the robots work.
(5) Messages and notifications: recipients and history of mails, SMS and chat notifications.

2. Why we use it
(1) To provide the Service, identify users, send verification codes and sign-in notices.
(2) To operate robots safely and investigate accidents and faults.
(3) To prevent unauthorized access, keep the Service secure and record operations in the audit log.
(4) To handle incidents, answer questions and announce maintenance and important notices.
(5) To improve the Service (as statistics that identify no one).
(6) To meet legal obligations.

3. Camera images and recordings
(1) Images and recordings are used only to operate and watch robots, review their work and investigate accidents and faults.
(2) Only people their organization has authorized, and our staff as far as maintenance requires, can see them.
(3) The User's organization puts up notices where filming takes place.
(4) We [do not process images to identify individuals, such as by face recognition / describe such processing].

4. How long we keep it
(1) Account data: [90 days] after the account is deleted.
(2) Sign-in history and audit log: [1 year].
(3) Camera images and recordings: [30 days], except those the organization keeps for an investigation.
(4) Mail and SMS history: [90 days].
After these periods, or within [90 days] after the contract ends, the data is deleted beyond recovery.

5. Disclosure to third parties
We do not give personal data to third parties without the person's consent, except:
(1) where the law requires it;
(2) where it is needed to protect life, body or property and consent is hard to obtain;
(3) in the other cases the applicable data protection law allows.

6. Processors
We entrust cloud hosting, mail and SMS delivery, video delivery and similar services to processors as far as these purposes need ([processors and their countries]). We supervise them appropriately and, for processors abroad, provide the information the law requires.

7. Security
Encrypted connections, hashed passwords, role-based access, IP address restrictions, two-step sign-in, the audit log and staff training, among other measures.

8. Your rights
You may ask us to disclose, correct, add to, delete or stop using your personal data, or to stop giving it to third parties, as described at [contact point and procedure]. You can change your display language, name and email address yourself on the Account page of the portal.

9. Cookies and local storage
The Service uses the browser's local storage to keep you signed in and remember your language. It does not track you for advertising.

10. Changes
We may revise this policy when needed. For a material change we publish a new version and ask users to agree to it again.

11. Contact
[Operator name, address, representative]
[Contact point for personal data: department, email address, telephone number]

[Established: YYYY-MM-DD]`;

export const TERM_TEMPLATES = {
  TOS: { titleJa: '利用規約', titleEn: 'Terms of Service', bodyJa: TOS_JA, bodyEn: TOS_EN },
  PP: { titleJa: 'プライバシーポリシー', titleEn: 'Privacy Policy', bodyJa: PP_JA, bodyEn: PP_EN },
} as const;

/** The version label of the templates when inserted. */
export const TEMPLATE_VERSION = '1.0';
